import { describe, expect, test } from 'vitest';
import { cn, initials } from './utils';

describe('initials', () => {
  test.each([
    ['Ada Lovelace', 'AL'],
    ['ada lovelace', 'AL'],
    ['Grace Brewster Murray Hopper', 'GB'],
    ['Cher', 'C'],
    ['  jean   claude  ', 'JC'],
    ['élodie durand', 'ÉD'],
    ['', ''],
    ['   ', ''],
    [null, ''],
    [undefined, ''],
  ])('%j gives %j', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});

describe('cn', () => {
  test('lets the later Tailwind class win and drops falsy values', () => {
    expect(cn('px-2 py-1', false, undefined, 'px-4')).toBe('py-1 px-4');
  });
});
