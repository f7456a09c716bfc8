import { expect, test } from 'vitest';
import { Lifecycle } from './core/lifecycle';
import { shutDown } from './shutdown';

/**
 * The graceful shutdown's order (decision 225): readiness fails first, requests are refused
 * after the delay, and the database closes only once HTTP, the engine, the outbox and the alert
 * email listener have all finished. tests/faults/graceful-shutdown.test.ts runs it for real.
 */
test.each([0, 3_000])(
  'delay %d ms: readiness, refusal, then the parts, then the database',
  async (delayMs) => {
    const lifecycle = new Lifecycle();
    const steps: string[] = [];
    const finish: Record<string, () => void> = {};
    const part = (name: string) => () =>
      new Promise<void>((resolve) => {
        steps.push(`${name} (draining ${lifecycle.draining}, refusing ${lifecycle.refusing})`);
        finish[name] = resolve;
      });
    const done = shutDown({
      lifecycle,
      delayMs,
      sleep: async (ms) => {
        steps.push(`wait ${ms} (draining ${lifecycle.draining}, refusing ${lifecycle.refusing})`);
      },
      stopAlertEmail: part('alert email'),
      closeHttp: part('http'),
      stopEngine: part('engine'),
      stopOutbox: part('outbox'),
      closeDatabase: async () => {
        steps.push('database');
      },
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(lifecycle).toEqual({ draining: true, refusing: true });
    // Nothing closes the database while any part still works.
    finish.http();
    finish.engine();
    finish['alert email']();
    await new Promise((r) => setTimeout(r, 10));
    expect(steps).not.toContain('database');
    finish.outbox();
    await done;
    expect(steps).toEqual([
      'alert email (draining true, refusing false)',
      ...(delayMs > 0 ? [`wait ${delayMs} (draining true, refusing false)`] : []),
      'http (draining true, refusing true)',
      'engine (draining true, refusing true)',
      'outbox (draining true, refusing true)',
      'database',
    ]);
  },
);
