import { createElement } from 'react';
import { describe, expect, test } from 'vitest';
import { renderInForm, textOf } from '../../../tests/setup/static-form';
import { FormError, TimeWindowFields } from './form-fields';

describe('FormError', () => {
  test("shows the form's own error as an alert", () => {
    const html = renderInForm({ name: '' }, () => createElement(FormError), {
      root: 'Failed to create the API token',
    });
    expect(html).toMatch(/<p role="alert"[^>]*>Failed to create the API token<\/p>/);
  });

  test("shows nothing without one, nor for a field's error", () => {
    expect(renderInForm({ name: '' }, () => createElement(FormError))).toBe('');
    expect(
      renderInForm({ name: '' }, () => createElement(FormError), { name: 'Name is required' }),
    ).toBe('');
  });
});

describe('TimeWindowFields', () => {
  const earliest = '2026-11-28T09:00';
  type Window = { startTime: string; endTime: string };
  const render = (
    values: Window,
    props: { startMayBePast?: boolean; disabled?: boolean } = {},
    errors: Record<string, string> = {},
  ) =>
    renderInForm<Window>(
      values,
      (control) => createElement(TimeWindowFields<Window>, { control, earliest, ...props }),
      errors,
    );
  const input = (html: string, name: string) =>
    html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0] ?? '';
  const labelled = (html: string, label: string) => {
    const id = html.match(new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}</label>`))?.[1];
    return html.match(new RegExp(`<input[^>]*id="${id}"[^>]*>`))?.[0] ?? '';
  };

  test('a labelled start and end, local date-times holding the values', () => {
    const html = render({ startTime: '2026-11-29T08:00', endTime: '2026-11-29T17:00' });
    expect(labelled(html, 'Start time')).toContain('name="startTime"');
    expect(labelled(html, 'End time')).toContain('name="endTime"');
    expect(input(html, 'startTime')).toContain('type="datetime-local"');
    expect(input(html, 'startTime')).toContain('value="2026-11-29T08:00"');
    expect(input(html, 'endTime')).toContain('value="2026-11-29T17:00"');
  });

  test('neither may be before the earliest until a start is chosen; then the end not before it', () => {
    const none = render({ startTime: '', endTime: '' });
    expect(input(none, 'startTime')).toContain(`min="${earliest}"`);
    expect(input(none, 'endTime')).toContain(`min="${earliest}"`);
    const started = render({ startTime: '2026-11-30T10:00', endTime: '' });
    expect(input(started, 'endTime')).toContain('min="2026-11-30T10:00"');
  });

  test('startMayBePast leaves the start unbounded', () => {
    const html = render({ startTime: '', endTime: '' }, { startMayBePast: true });
    expect(input(html, 'startTime')).not.toContain('min=');
    expect(input(html, 'endTime')).toContain(`min="${earliest}"`);
  });

  test('disabled while told so; an error says why under its field', () => {
    const html = render(
      { startTime: '', endTime: '' },
      { disabled: true },
      { endTime: 'The end must be after the start.' },
    );
    expect(input(html, 'startTime')).toContain('disabled=""');
    expect(input(html, 'endTime')).toContain('aria-invalid="true"');
    expect(input(html, 'startTime')).toContain('aria-invalid="false"');
    expect(textOf(html)).toContain('The end must be after the start.');
  });
});
