// The pass-the-baton figure on its own (issue 36, decision 273): `BENCH_ONLY=baton npm run bench`.
// run.ts seeds the full organisation, starts the built server and signs everyone in; this file
// holds the load and its figures, which the full run's pass-baton figure uses too: each of
// 50 clients takes an idle rotation, sends a pass from its holder's session to the next member,
// and on 200 the holder moves on. Here every request's latency is also kept with the second it
// was sent in, so a tail can be told apart from a slow second (a queue that starves some requests
// shows as a few very late answers inside seconds whose median is low).
import autocannon from 'autocannon';
import type { SeededOrganisation } from './seed';
import { percentile } from './stats';

/** the rotations' holders as the load leaves them, so a warm-up and the measured load chain */
export type BatonState = { id: number; memberIds: number[]; holderIndex: number }[];

export interface BatonFigures {
  seconds: number;
  connections: number;
  passes: number;
  passesPerSecond: number;
  refused: number;
  /** the refusals by status and code, e.g. `409 BATON_HOLDER_CHANGED` */
  refusedAs: Record<string, number>;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** each second of the load: passes answered, their p50 and their slowest (ms) */
  perSecond: { passes: number; p50: number; max: number }[];
}

/** the rotations the warm-up passes batons on; the measured load has the others */
const WARMUP_ROTATIONS = 60;

/**
 * batonState copies the seeded rotations' holders for two loads, a warm-up and the measured one,
 * on separate rotations: a pass the warm-up sent may be answered after the warm-up stopped
 * counting, and the measured load would then send from a holder who no longer is.
 */
export function batonState(org: SeededOrganisation): [BatonState, BatonState] {
  const all = org.rotations.map((r) => ({ ...r, memberIds: [...r.memberIds] }));
  return [all.slice(-WARMUP_ROTATIONS), all.slice(0, -WARMUP_ROTATIONS)];
}

/**
 * batonLoad runs `connections` clients passing batons for `seconds` against `base`, moving the
 * holders in `state` as passes succeed, and answers its figures (latencies in ms, measured from
 * the request's setup to its answer: one request at a time per client, so that is when it was sent).
 */
export async function batonLoad(
  base: string,
  state: BatonState,
  cookies: Map<number, string>,
  seconds: number,
  connections: number,
): Promise<BatonFigures> {
  const idle = [...state];
  const latencies: { at: number; ms: number; ok: boolean }[] = [];
  const refusedAs: Record<string, number> = {};
  const started = performance.now();
  const r = await autocannon({
    url: base,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (req, context) => {
          const rotation = idle.shift();
          if (!rotation) throw new Error('no idle rotation: more connections than rotations');
          context.rotation = rotation;
          context.sentAt = performance.now();
          const holder = rotation.memberIds[rotation.holderIndex];
          const next = rotation.memberIds[(rotation.holderIndex + 1) % rotation.memberIds.length];
          return {
            ...req,
            method: 'POST',
            path: `/api/rotations/${rotation.id}/handoff`,
            headers: {
              'content-type': 'application/json',
              origin: base,
              cookie: cookies.get(holder) as string,
            },
            body: JSON.stringify({ toUserId: next }),
          };
        },
        onResponse: (status, body, context) => {
          const rotation = context.rotation as BatonState[number];
          const sentAt = context.sentAt as number;
          const ok = status === 200;
          if (ok) rotation.holderIndex = (rotation.holderIndex + 1) % rotation.memberIds.length;
          else {
            const as = `${status} ${/"code":"(\w+)"/.exec(body)?.[1] ?? ''}`.trim();
            refusedAs[as] = (refusedAs[as] ?? 0) + 1;
          }
          latencies.push({ at: sentAt - started, ms: performance.now() - sentAt, ok });
          idle.push(rotation);
        },
      },
    ],
  });
  const answered = latencies.filter((l) => l.ok);
  const sorted = answered.map((l) => l.ms).sort((a, b) => a - b);
  const perSecond = Array.from({ length: seconds }, (_, s) => {
    const inSecond = answered
      .filter((l) => Math.floor(l.at / 1000) === s)
      .map((l) => l.ms)
      .sort((a, b) => a - b);
    return {
      passes: inSecond.length,
      p50: Math.round(percentile(inSecond, 50)),
      max: Math.round(inSecond.at(-1) ?? 0),
    };
  });
  return {
    seconds,
    connections,
    passes: answered.length,
    passesPerSecond: r['2xx'] / seconds,
    refused: latencies.length - answered.length,
    refusedAs,
    errors: r.errors + r.timeouts,
    p50: Math.round(percentile(sorted, 50)),
    p90: Math.round(percentile(sorted, 90)),
    p99: Math.round(percentile(sorted, 99)),
    max: Math.round(sorted.at(-1) ?? 0),
    perSecond,
  };
}

/** the same load for this long first, on the just-started server, not counted in the figures */
export const BATON_WARMUP_SECONDS = 3;
