import { createElement } from 'react';
import { describe, expect, test } from 'vitest';
import { renderInForm, textOf } from '../../../tests/setup/static-form';
import { PersonField } from './person-field';

const people = [
  { id: 1, name: 'Ada Lovelace' },
  { id: 2, name: 'Grace Hopper' },
];

type Values = { toUserId: string };
const render = (
  props: Partial<Parameters<typeof PersonField<Values>>[0]> = {},
  errors: Record<string, string> = {},
) =>
  renderInForm<Values>(
    { toUserId: '' },
    (control) =>
      createElement(PersonField<Values>, {
        control,
        name: 'toUserId',
        label: 'Pass baton to',
        people,
        ...props,
      }),
    errors,
  );

describe('PersonField', () => {
  test('a labelled combobox showing its placeholder until someone is chosen', () => {
    const html = render({ placeholder: 'Choose a person' });
    const label = html.match(/<label[^>]*for="([^"]+)"[^>]*>Pass baton to<\/label>/);
    expect(label).not.toBeNull();
    expect(html).toMatch(new RegExp(`<button[^>]*role="combobox"[^>]*id="${label?.[1]}"`));
    expect(textOf(html)).toContain('Choose a person');
    expect(textOf(html)).not.toContain('Select team member');
  });

  test('says the default placeholder when given none, and is disabled while told so', () => {
    expect(textOf(render())).toContain('Select team member');
    expect(render({ disabled: true })).toMatch(/<button[^>]*role="combobox"[^>]*disabled=""/);
    expect(render()).not.toMatch(/<button[^>]*role="combobox"[^>]*disabled=""/);
  });

  test('says emptyText only when there is nobody to choose; description always', () => {
    const empty = 'There is no one else in this rotation to pass the baton to.';
    expect(textOf(render({ people: [], emptyText: empty }))).toContain(empty);
    expect(textOf(render({ emptyText: empty }))).not.toContain(empty);
    const described = render({ description: 'The list of people could not be read.' });
    expect(textOf(described)).toContain('The list of people could not be read.');
  });

  test('while the people load: placeholders of its size, no select', () => {
    const html = render({ loading: true });
    expect(html).not.toContain('combobox');
    expect(html).not.toContain('Pass baton to');
    expect(html).toContain('data-slot="skeleton"');
  });

  test('when the people failed to load: the reason as an alert instead of the select', () => {
    const html = render({ error: 'Failed to fetch eligible users' });
    expect(html).toMatch(/<p role="alert"[^>]*>Failed to fetch eligible users<\/p>/);
    expect(html).not.toContain('combobox');
  });

  test('a wrong choice marks the combobox invalid and says why under it', () => {
    const html = render({}, { toUserId: 'Choose who takes the baton.' });
    expect(html).toMatch(/<button[^>]*role="combobox"[^>]*aria-invalid="true"/);
    expect(textOf(html)).toContain('Choose who takes the baton.');
    expect(render()).toMatch(/<button[^>]*role="combobox"[^>]*aria-invalid="false"/);
  });
});
