import type { Clock } from '../../core/clock';

/**
 * KeyRateLimiter counts each integration's requests in one-second windows of the app's clock, in
 * this process's memory (decision 211): a request beyond the integration's limit in the current
 * second is refused until the next second starts.
 */
export class KeyRateLimiter {
  private readonly windows = new Map<number, { second: number; count: number }>();
  constructor(private readonly clock: Clock) {}

  /** take counts one request; it returns 0 when it may pass, else the seconds to wait (≥ 1). */
  take(integrationId: number, perSecond: number): number {
    const ms = this.clock.now().getTime();
    const second = Math.floor(ms / 1000);
    const window = this.windows.get(integrationId);
    if (!window || window.second !== second) {
      if (this.windows.size > 10_000) this.prune(second);
      this.windows.set(integrationId, { second, count: 1 });
      return 0;
    }
    if (window.count >= perSecond) return 1;
    window.count += 1;
    return 0;
  }

  private prune(second: number) {
    for (const [id, w] of this.windows) if (w.second !== second) this.windows.delete(id);
  }
}
