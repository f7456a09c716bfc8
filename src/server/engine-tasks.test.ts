import { describe, expect, test } from 'vitest';
import { testConfig } from '../../tests/setup/test-app';
import { buildApp } from './app';
import { ConfigError } from './core/config';
import { handoffs } from './db/schema';
import { startEngineLoop } from './engine/engine-loop';
import type { EngineDeps } from './engine/engine-task';
import { runEngineTick } from './engine-tasks';
import {
  ana,
  ben,
  clearNotifications,
  deps,
  history,
  MINUTE,
  rotationRow,
  sent,
  setUpEngineApp,
  t,
  tick,
} from './engine-tasks.fixtures';
import { insertRotation } from './seed/factories';

setUpEngineApp();

const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('the engine as a process', () => {
  test('readiness fails when the engine has not ticked for several intervals', async () => {
    let ticks = 0;
    const loop = startEngineLoop({
      clock: t.clock,
      intervalMs: 15_000,
      tick: async () => {
        ticks += 1;
      },
      autoStart: false,
    });
    const app = await buildApp({
      config: t.config,
      database: t.database,
      cipher: t.cipher,
      clock: t.clock,
      logger: false,
      engineStatus: () => loop.status(),
    });
    const ready = () => app.inject({ url: '/readyz' });
    expect((await ready()).statusCode).toBe(503);
    await loop.runOnce();
    expect(ticks).toBe(1);
    const ok = await ready();
    expect(ok.statusCode).toBe(200);
    expect(ok.json().engine.lastTickAt).toBe(t.clock.now().toISOString());
    t.clock.advance(60_000);
    expect((await ready()).statusCode).toBe(200);
    t.clock.advance(1_000);
    const stale = await ready();
    expect(stale.statusCode).toBe(503);
    expect(stale.json().message).toMatch(/The engine has not ticked since/);
    await loop.stop();
    await app.close();
  });

  test('a tick that dies midway loses and doubles nothing: the next one finishes the work once', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const r = await insertRotation(t.database.db, {
      name: 'Crash Daily',
      cadence: 'daily',
      handoffTime: '09:00',
      memberIds: [ana.id, ben.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    t.clock.set('2026-11-03T10:00:00Z');
    // The outbox write fails inside the transaction that moves the baton: all of it rolls back.
    let failNext = true;
    const flaky: EngineDeps = {
      ...deps,
      cipher: new Proxy(t.cipher, {
        get(target, prop, receiver) {
          if (prop === 'encrypt' && failNext) {
            return (plain: string, ctx: never) => {
              if (!plain.includes('Crash Daily')) return target.encrypt(plain, ctx);
              failNext = false;
              throw new Error('killed mid-tick');
            };
          }
          const value = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    };
    await expect(runEngineTick(flaky, t.clock.now())).rejects.toThrow(/killed mid-tick/);
    expect(await history(r.id)).toEqual([]);
    expect((await rotationRow(r.id)).holderUserId).toBe(ana.id);
    await runEngineTick(flaky, t.clock.now());
    await runEngineTick(flaky, t.clock.now());
    expect((await history(r.id)).map((h) => h.toUserId)).toEqual([ben.id]);
    expect(await sent(r.id)).toEqual(['handoff.auto → Ben', 'handoff.auto → Ana']);
  });

  test('in a batch, a rotation whose flow fails holds back no other, and one already handed off is skipped', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const make = (name: string) =>
      insertRotation(t.database.db, {
        name,
        cadence: 'daily',
        handoffTime: '09:00',
        memberIds: [ana.id, ben.id],
        holderId: ana.id,
        now: t.clock.now(),
      });
    const fine = await make('Batch Daily Fine');
    const broken = await make('Batch Daily Broken');
    const done = await make('Batch Daily Done');
    t.clock.set('2026-11-03T10:00:00Z');
    // Another engine already recorded Done's automatic transfer.
    const boundary = (await rotationRow(done.id)).nextHandoffAt?.toISOString();
    await t.database.db.insert(handoffs).values({
      rotationId: done.id,
      fromUserId: ana.id,
      toUserId: ben.id,
      kind: 'auto',
      status: 'escalated',
      occurredAt: t.clock.now(),
      effectKey: `auto:${done.id}:${boundary}`,
    });
    // Broken's notices cannot be written, whatever is tried.
    const failing: EngineDeps = {
      ...deps,
      cipher: new Proxy(t.cipher, {
        get(target, prop, receiver) {
          if (prop === 'encrypt') {
            return (plain: string, ctx: never) => {
              if (plain.includes('Batch Daily Broken')) throw new Error('cannot write Broken');
              return target.encrypt(plain, ctx);
            };
          }
          const value = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    };
    await expect(runEngineTick(failing, t.clock.now())).rejects.toThrow(/cannot write Broken/);
    expect((await history(fine.id)).map((h) => h.toUserId)).toEqual([ben.id]);
    expect(await sent(fine.id)).toEqual(['handoff.auto → Ben', 'handoff.auto → Ana']);
    expect(await history(broken.id)).toEqual([]);
    expect((await rotationRow(broken.id)).holderUserId).toBe(ana.id);
    expect(await history(done.id)).toHaveLength(1);
    expect(await sent(done.id)).toEqual([]);

    await tick();
    expect((await history(broken.id)).map((h) => h.toUserId)).toEqual([ben.id]);
    expect(await sent(broken.id)).toEqual(['handoff.auto → Ben', 'handoff.auto → Ana']);
    expect(await history(fine.id)).toHaveLength(1);
    expect(await sent(fine.id)).toHaveLength(2);
  });

  test('the flow timings and the interval come from the environment', () => {
    const config = testConfig({
      ENGINE_INTERVAL_SECONDS: '5',
      HANDOFF_NOTICE_MINUTES: '45',
      HANDOFF_ESCALATE_MINUTES: '20',
      HANDOFF_AUTO_TRANSFER_MINUTES: '40',
      HANDOFF_ACK_MINUTES: '10',
      HANDOFF_BACKUP_MINUTES: '5',
    });
    expect(config.engineIntervalMs).toBe(5000);
    expect(config.handoffTimings).toEqual({
      noticeBeforeMs: 45 * MINUTE,
      escalateAfterMs: 20 * MINUTE,
      autoTransferAfterMs: 40 * MINUTE,
      acknowledgeWithinMs: 10 * MINUTE,
      backupMs: 5 * MINUTE,
    });
    expect(testConfig().engineIntervalMs).toBe(15_000);
    expect(() => testConfig({ HANDOFF_AUTO_TRANSFER_MINUTES: '20' })).toThrow(ConfigError);
    expect(() => testConfig({ ENGINE_INTERVAL_SECONDS: '0' })).toThrow(/ENGINE_INTERVAL_SECONDS/);
    expect(DAY).toBe(86_400_000);
  });
});
