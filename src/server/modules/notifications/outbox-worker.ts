import {
  BATCH_SIZE,
  type DeliveryDeps,
  type DeliveryReport,
  deliverDue,
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

type Worker = { stop: () => Promise<void>; tick: () => Promise<DeliveryReport> };

/**
 * startOutboxWorker delivers due notifications every interval until stopped, with one loop per
 * channel (decision 102): each claims only its channel's rows, and its ticks never overlap, so a
 * provider that hangs until its timeout delays its own channel only. `tick` runs every channel's
 * loop once and adds up what they did.
 */
export function startOutboxWorker(
  deps: DeliveryDeps & { intervalMs: number; onError?: (err: unknown) => void },
): Worker {
  const loops = OUTBOX_CHANNELS.filter(
    (channel) =>
      channel === 'email' || channel === 'sms' || channel === 'voice' || deps.channels[channel],
  ).map((channel) => startChannelLoop(deps, channel));
  return {
    tick: async () => {
      const reports = await Promise.all(loops.map((loop) => loop.tick()));
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
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}

function startChannelLoop(
  deps: DeliveryDeps & { intervalMs: number; onError?: (err: unknown) => void },
  channel: OutboxChannel,
): Worker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
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
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((err) => deps.onError?.(err))
        .finally(schedule);
    }, deps.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    tick,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
