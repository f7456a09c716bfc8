import { MessageSquare } from 'lucide-react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ApiRequestError } from '@/lib/api-client';
import { textOf } from '../../../tests/setup/static-form';
import { ConnectionsCard, type ConnectionsQuery } from './connections-card';

const done: ConnectionsQuery = { isPending: false, isError: false, error: null };
const render = (
  props: Partial<Parameters<typeof ConnectionsCard>[0]> = {},
  items: string[] = ['Slack'],
) =>
  renderToStaticMarkup(
    createElement(
      ConnectionsCard,
      {
        title: 'Chat and webhooks',
        description: 'Where this rotation posts.',
        query: done,
        count: items.length,
        loadingLabel: 'Loading destinations...',
        errorTitle: 'Failed to load the destinations',
        emptyIcon: MessageSquare,
        emptyText: 'No destinations yet.',
        listLabel: 'Destinations',
        ...props,
      } as Parameters<typeof ConnectionsCard>[0],
      items.map((item) => createElement('li', { key: item }, item)),
    ),
  );

describe('ConnectionsCard', () => {
  test('the heading, its description and action, then the connections in a named list', () => {
    const html = render({ action: createElement('button', { type: 'button' }, 'Add destination') });
    expect(html).toMatch(/<h2[^>]*>Chat and webhooks<\/h2>/);
    expect(textOf(html)).toContain('Where this rotation posts.');
    expect(textOf(html)).toContain('Add destination');
    expect(html).toMatch(/<ul[^>]*aria-label="Destinations"[^>]*><li>Slack<\/li><\/ul>/);
    expect(textOf(html)).not.toContain('No destinations yet.');
  });

  test("inside another card's item its heading is a level 4", () => {
    const html = render({ headingLevel: 4 });
    expect(html).toMatch(/<h4[^>]*>Chat and webhooks<\/h4>/);
    expect(html).not.toContain('<h2');
  });

  test('while loading: a status saying so, no list', () => {
    const html = render({ query: { isPending: true, isError: false, error: null }, count: 0 });
    expect(html).toContain('role="status"');
    expect(textOf(html)).toContain('Loading destinations...');
    expect(html).not.toContain('<ul');
  });

  test('on failure: an alert with the title and the reason', () => {
    const error = new ApiRequestError(409, 'Conflict', { message: 'The database is away' });
    const html = render({ query: { isPending: false, isError: true, error }, count: 0 });
    expect(html).toContain('role="alert"');
    expect(textOf(html)).toContain('Failed to load the destinations');
    expect(textOf(html)).toContain('The database is away');
    expect(html).not.toContain('<ul');
  });

  test('with none: the empty text, no list; a notice shows over any state', () => {
    const html = render({ notice: createElement('p', null, 'Signing secret') }, []);
    expect(textOf(html)).toContain('No destinations yet.');
    expect(html).not.toContain('<ul');
    expect(textOf(html).indexOf('Signing secret')).toBeLessThan(
      textOf(html).indexOf('No destinations yet.'),
    );
  });
});
