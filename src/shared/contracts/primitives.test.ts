import { describe, expect, test } from 'vitest';
import { INT4_MAX, id, idText, instant, text } from './primitives';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : (result.error?.issues[0]?.message ?? null);

describe('text', () => {
  const single = text({ label: 'Name', trim: true });
  const multi = text({ label: 'Notes', multiline: true });
  test.each([
    ['Platform team', null],
    ['  trimmed\t', null],
    ['Plat\u0000form', 'Name must not contain control characters such as tabs or line breaks'],
    ['Plat\tform', 'Name must not contain control characters such as tabs or line breaks'],
    ['two\nlines', 'Name must not contain control characters such as tabs or line breaks'],
    ['bell\u0007', 'Name must not contain control characters such as tabs or line breaks'],
    ['del\u007f', 'Name must not contain control characters such as tabs or line breaks'],
    ['next line\u0085', 'Name must not contain control characters such as tabs or line breaks'],
    ['lone \ud800 surrogate', 'Name must be valid Unicode text'],
    ['emoji 👩🏽‍💻 and 班', null],
  ])('single-line %j', (value, message) => {
    expect(firstMessage(single.safeParse(value))).toBe(message);
  });
  test.each([
    ['line one\nline two\r\n\tindented', null],
    [
      'NUL\u0000inside',
      'Notes must not contain control characters (line breaks and tabs are fine)',
    ],
    [
      'escape\u001b[31m',
      'Notes must not contain control characters (line breaks and tabs are fine)',
    ],
    ['\udc00 trailing half', 'Notes must be valid Unicode text'],
  ])('multi-line %j', (value, message) => {
    expect(firstMessage(multi.safeParse(value))).toBe(message);
  });
});

describe('id and idText', () => {
  const int4 = 'userId must be a whole number from 1 to 2147483647';
  test.each([
    [1, null],
    [INT4_MAX, null],
    [INT4_MAX + 1, int4],
    [0, int4],
    [-1, int4],
    [1.5, int4],
    ['7', int4],
  ])('id(%j)', (value, message) => {
    expect(firstMessage(id({ label: 'userId' }).safeParse(value))).toBe(message);
  });
  test.each([
    ['42', 42],
    ['0042', 42],
    ['2147483647', 2147483647],
    ['2147483648', null],
    ['-1', null],
    ['1e3', null],
    [' 7', null],
    ['', null],
  ])('idText(%j)', (value, parsed) => {
    const result = idText().safeParse(value);
    expect(result.success ? result.data : null).toBe(parsed);
  });
  test('an int8 id goes to 2^53 - 1', () => {
    expect(idText({ column: 'int8' }).safeParse('9007199254740991').success).toBe(true);
    expect(idText({ column: 'int8' }).safeParse('9007199254740992').success).toBe(false);
  });
});

describe('instant', () => {
  const start = instant({
    label: 'Start time',
    message: 'Start time must be a valid date and time',
  });
  test.each([
    ['2026-11-02T09:00:00Z', true],
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59.999Z', true],
    ['-004714-01-01T00:00:00Z', false],
    ['+010000-01-01T00:00:00Z', false],
    ['2026-13-45', false],
    ['2026-11-02T09:00:00Z\u0000', false],
  ])('%j valid: %s', (value, valid) => {
    expect(start.safeParse(value).success).toBe(valid);
  });
});
