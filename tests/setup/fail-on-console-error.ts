import { afterEach } from 'vitest';

// An unexpected console.error fails the test that caused it. Test files share a worker's module
// cache (isolate: false in vitest.config.ts), and this file runs again for each of them: the
// console is wrapped once, and each file's afterEach reads the one list.
const state = globalThis as typeof globalThis & { __batonConsoleErrors?: unknown[][] };
if (!state.__batonConsoleErrors) {
  state.__batonConsoleErrors = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    state.__batonConsoleErrors?.push(args);
    original(...args);
  };
}
afterEach(() => {
  const seen = state.__batonConsoleErrors ?? [];
  state.__batonConsoleErrors = [];
  if (seen.length > 0) {
    throw new Error(
      `console.error was called:\n${seen.map((a) => a.map(String).join(' ')).join('\n')}`,
    );
  }
});
