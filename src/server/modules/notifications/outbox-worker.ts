import type { Database } from '../../db/client';
import {
  BATCH_SIZE,
  type DeliveryDeps,
  type DeliveryReport,
  deliverDue,
  nextDueAt,
  type OutboxChannel,
} from './outbox';

/** the channels the worker runs a delivery loop for, each on its own (chat, token-sync, push when it has them) */
const OUTBOX_CHANNELS: readonly OutboxChannel[] = [
  'email',
  'sms',
  'voice',
  'chat',
  'token-sync',
  'push',
];

/** the NOTIFY channel migration 0033's trigger rings when notifications are added (decision 274) */
export const OUTBOX_DOORBELL = 'baton_outbox';

/** how soon after its due time a delayed notification is looked for: timers fire a little late */
const DUE_SLACK_MS = 5;
/**
 * the shortest sleep after a look: a due row that another instance holds locked while it claims
 * it is skipped, and must not make this loop spin until that claim commits
 */
const MIN_SLEEP_MS = 50;

type Worker = { stop: () => Promise<void>; tick: () => Promise<DeliveryReport> };

/** The worker: its loops' `tick` and `stop`, and `listening`, settled once the doorbell is heard. */
export type OutboxWorker = Worker & { listening: Promise<void> };

export interface OutboxWorkerDeps extends DeliveryDeps {
  /** the longest a channel's loop sleeps between looks (OUTBOX_INTERVAL_SECONDS) */
  intervalMs: number;
  onError?: (err: unknown) => void;
  /**
   * the database's NOTIFY feed: with it, each channel's loop wakes when a commit adds its
   * notifications (decision 274), on every instance; without it, the loops only poll.
   */
  listen?: Database['listen'];
}

/**
 * startOutboxWorker delivers due notifications until stopped, with one loop per channel (decision
 * 102): each claims only its channel's rows, and its ticks never overlap, so a provider that hangs
 * until its timeout delays its own channel only. A loop looks when the doorbell rings (a commit
 * added its notifications, decision 274), when its earliest pending notification falls due, and
 * at the latest every interval. `tick` runs every channel's loop once and adds up what they did.
 */
export function startOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const loops = new Map(
    OUTBOX_CHANNELS.filter(
      (channel) =>
        channel === 'email' || channel === 'sms' || channel === 'voice' || deps.channels[channel],
    ).map((channel) => [channel, startChannelLoop(deps, channel)]),
  );
  const doorbell = deps.listen?.(OUTBOX_DOORBELL, {
    onNotify: (payload) => {
      for (const channel of payload.split(',')) loops.get(channel as OutboxChannel)?.wake();
    },
    // What rang while the feed was down is found by the polls, and at once after it is back.
    onReconnect: () => {
      for (const loop of loops.values()) loop.wake();
    },
  });
  // A feed that cannot be opened leaves the polls: the outbox still delivers.
  const unlisten = doorbell?.catch((err) => {
    deps.onError?.(err);
    return null;
  });
  return {
    listening: unlisten ? unlisten.then(() => {}) : Promise.resolve(),
    tick: async () => {
      const reports = await Promise.all([...loops.values()].map((loop) => loop.tick()));
      return reports.reduce(
        (sum, r) => ({
          sent: sum.sent + r.sent,
          failed: sum.failed + r.failed,
          retrying: sum.retrying + r.retrying,
        }),
        { sent: 0, failed: 0, retrying: 0 },
      );
    },
    stop: async () => {
      await (await unlisten)?.();
      await Promise.all([...loops.values()].map((loop) => loop.stop()));
    },
  };
}

type ChannelLoop = Worker & { wake: () => void };

function startChannelLoop(deps: OutboxWorkerDeps, channel: OutboxChannel): ChannelLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  // a ring while a look was under way: look again as soon as it ends
  let rangMeanwhile = false;
  let stopped = false;
  const tick = async (): Promise<DeliveryReport> => {
    const report = await deliverDue(deps, BATCH_SIZE, channel);
    // Keep going while a full batch came back, so a backlog drains without waiting.
    if (report.sent + report.failed + report.retrying === BATCH_SIZE && !stopped) {
      const more = await tick();
      return {
        sent: report.sent + more.sent,
        failed: report.failed + more.failed,
        retrying: report.retrying + more.retrying,
      };
    }
    return report;
  };
  /** how long to sleep: until the earliest pending notification is due, at most the interval */
  const sleepMs = async () => {
    const due = await nextDueAt(deps.db, channel);
    if (!due) return deps.intervalMs;
    const wait = due.getTime() - deps.clock.now().getTime() + DUE_SLACK_MS;
    return Math.min(deps.intervalMs, Math.max(MIN_SLEEP_MS, wait));
  };
  const look = () => {
    if (stopped) return;
    if (running) {
      rangMeanwhile = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = undefined;
    running = tick()
      // Rung meanwhile: it looks again at once, and the sleep's read would go unused.
      .then(() => (rangMeanwhile ? 0 : sleepMs()))
      .catch((err) => {
        deps.onError?.(err);
        return deps.intervalMs;
      })
      .then((ms) => {
        running = null;
        if (rangMeanwhile) {
          rangMeanwhile = false;
          look();
        } else schedule(ms);
      });
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(look, ms);
    timer.unref();
  };
  schedule(deps.intervalMs);
  return {
    tick,
    wake: look,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
