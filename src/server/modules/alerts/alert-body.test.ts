import { expect, test } from 'vitest';
import { jsonNestingExceeds } from './alert-body';

test('jsonNestingExceeds counts brackets outside strings only', () => {
  expect(jsonNestingExceeds('{"a":[[1]]}', 3)).toBe(false);
  expect(jsonNestingExceeds('{"a":[[[1]]]}', 3)).toBe(true);
  expect(jsonNestingExceeds(`{"a":"${'['.repeat(100)}"}`, 3)).toBe(false);
  expect(jsonNestingExceeds('{"a":"\\"[[[[[["}', 3)).toBe(false);
  expect(jsonNestingExceeds('['.repeat(10_000), 64)).toBe(true);
});
