import { OIDC_RESULT_MESSAGE, type OidcResult } from '@shared/contracts/auth';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { waitForResult } from './sign-in-with-google';

const ORIGIN = 'http://baton.test';
const refused: OidcResult = {
  type: OIDC_RESULT_MESSAGE,
  ok: false,
  status: 403,
  reason: 'denied',
  message: 'You do not have permission to access this application.',
};

/** A page's window as far as waitForResult uses it: message events and its origin. */
function fakeWindow() {
  return Object.assign(new EventTarget(), { location: { origin: ORIGIN } });
}

describe('waitForResult', () => {
  let page: ReturnType<typeof fakeWindow>;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    page = fakeWindow();
    vi.stubGlobal('window', page);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const report = (data: unknown, origin = ORIGIN) =>
    page.dispatchEvent(new MessageEvent('message', { data, origin }));

  test('a result heard after the poll saw the popup closed still counts (it closes itself)', async () => {
    const popup = { closed: false };
    const result = waitForResult(popup);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(600); // the poll has seen it closed
    report(refused);
    await expect(result).resolves.toEqual(refused);
  });

  test('a popup closed without a word is null once its grace is over, not before', async () => {
    let settled: OidcResult | null | 'pending' = 'pending';
    void waitForResult({ closed: true }).then((value) => {
      settled = value;
    });
    await vi.advanceTimersByTimeAsync(1_500);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(settled).toBeNull();
  });

  test("another origin's message, or another shape, is not a result", async () => {
    let settled: OidcResult | null | 'pending' = 'pending';
    void waitForResult({ closed: false }).then((value) => {
      settled = value;
    });
    report(refused, 'http://evil.test');
    report({ type: 'something-else', ok: true });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(settled).toBe('pending');
    report({ type: OIDC_RESULT_MESSAGE, ok: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toEqual({ type: OIDC_RESULT_MESSAGE, ok: true });
  });
});
