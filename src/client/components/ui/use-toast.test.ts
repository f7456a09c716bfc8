import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX, ToastProvider } from './toast';
import { getToasts, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, toast } from './use-toast';

// Specification section 9: default duration 5000 ms, swipe 50 px to the right, one toast at a
// time, a dismissed toast deleted 1,000,000 ms after dismissal.
describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('the constants are the specification’s', () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(TOAST_SWIPE_THRESHOLD_PX).toBe(50);
  });

  test('the provider gives every toast 5000 ms and dismisses on a 50 px swipe to the right', () => {
    const { props } = ToastProvider({});
    expect(props).toMatchObject({ duration: 5000, swipeDirection: 'right', swipeThreshold: 50 });
  });

  test('one toast at a time: a new one replaces the one showing', () => {
    toast({ title: 'Rotation created' });
    const second = toast({ title: 'Settings saved', variant: 'destructive' });
    expect(getToasts()).toEqual([
      expect.objectContaining({ id: second.id, title: 'Settings saved', open: true }),
    ]);
  });

  test('a dismissed toast closes at once and is deleted 1,000,000 ms later', () => {
    const shown = toast({ title: 'Logged Out' });
    shown.dismiss();
    expect(getToasts()).toEqual([expect.objectContaining({ id: shown.id, open: false })]);
    vi.advanceTimersByTime(999_999);
    expect(getToasts().map((t) => t.id)).toEqual([shown.id]);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toEqual([]);
  });
});
