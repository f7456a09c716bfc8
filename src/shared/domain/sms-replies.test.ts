import { describe, expect, test } from 'vitest';
import { parseSmsReply, replyInstruction } from './sms-replies';

describe('parseSmsReply', () => {
  test.each([
    ['4821', { code: '4821', action: 'acknowledge' }],
    ['  4821 ', { code: '4821', action: 'acknowledge' }],
    ['4821R', { code: '4821', action: 'resolve' }],
    ['4821r', { code: '4821', action: 'resolve' }],
    ['\n0007r', { code: '0007', action: 'resolve' }],
    ['4821 R', { code: '4821', action: 'resolve' }],
  ])('%j asks %j', (body, expected) => {
    expect(parseSmsReply(body)).toEqual(expected);
  });

  test.each(['', 'hello', '482', '48210', 'R4821', '4821 RR', '4821RR', '4821X', '٤٨٢١'])(
    '%j is no code',
    (body) => {
      expect(parseSmsReply(body)).toBeNull();
    },
  );
});

test('the reply instruction', () => {
  expect(replyInstruction('4821')).toBe('Reply 4821 to acknowledge, 4821R to resolve.');
});
