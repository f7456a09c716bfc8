import { describe, expect, test } from 'vitest';
import { safeHref, textParts } from './linkify';

describe('links in typed text', () => {
  test.each([
    ['no address', 'Disk full on db-1', [{ kind: 'text', text: 'Disk full on db-1' }]],
    [
      'an address in a sentence, its full stop left out',
      'See https://grafana.example/d/abc?from=now-1h.',
      [
        { kind: 'text', text: 'See ' },
        { kind: 'link', href: 'https://grafana.example/d/abc?from=now-1h' },
        { kind: 'text', text: '.' },
      ],
    ],
    [
      'an address in brackets',
      'runbook (http://wiki.example/runbooks/db)',
      [
        { kind: 'text', text: 'runbook (' },
        { kind: 'link', href: 'http://wiki.example/runbooks/db' },
        { kind: 'text', text: ')' },
      ],
    ],
    [
      'a bracket that belongs to the address',
      'https://en.wikipedia.example/wiki/Baton_(relay)',
      [{ kind: 'link', href: 'https://en.wikipedia.example/wiki/Baton_(relay)' }],
    ],
    [
      'two addresses on two lines',
      'a https://a.example\nb https://b.example/x',
      [
        { kind: 'text', text: 'a ' },
        { kind: 'link', href: 'https://a.example' },
        { kind: 'text', text: '\nb ' },
        { kind: 'link', href: 'https://b.example/x' },
      ],
    ],
    [
      'script addresses stay text',
      'javascript:alert(1) data:text/html,<b>x</b> ftp://files.example/a',
      [{ kind: 'text', text: 'javascript:alert(1) data:text/html,<b>x</b> ftp://files.example/a' }],
    ],
    [
      'an address that does not parse stays text',
      'http://[oops/ then',
      [{ kind: 'text', text: 'http://[oops/ then' }],
    ],
    [
      'a quote ends an address',
      'open "https://status.example/incident" now',
      [
        { kind: 'text', text: 'open "' },
        { kind: 'link', href: 'https://status.example/incident' },
        { kind: 'text', text: '" now' },
      ],
    ],
  ] as const)('%s', (_case, text, parts) => {
    expect(textParts(text)).toEqual(parts);
  });

  test.each([
    ['https://x.example/a', 'https://x.example/a'],
    ['HTTP://X.example', 'http://x.example/'],
    ['javascript:alert(1)', null],
    ['data:text/html,hi', null],
    ['mailto:a@b.example', null],
    ['not a url', null],
  ])('safeHref(%s) is %s', (candidate, expected) => {
    expect(safeHref(candidate)).toBe(expected);
  });
});
