// The alert ingestion figures of issue 17: PagerDuty Events v2 triggers accepted per second by
// POST /api/alerts/pagerduty/v2/enqueue under 50 connections (80% repeats of open dedup keys, 20%
// new keys), and 10,000 distinct alerts sent within a minute all recorded.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { count, eq } from 'drizzle-orm';
import type { FieldCipher } from '../../src/server/crypto/field-crypto';
import type { Db } from '../../src/server/db/client';
import { alerts } from '../../src/server/db/schema';
import { insertIntegration } from '../../src/server/seed/factories';
import { RATE_LIMIT_MAX } from '../../src/shared/contracts/integrations';

export const ENQUEUE_PATH = '/api/alerts/pagerduty/v2/enqueue';
/** Share of the load's requests that repeat an open dedup key (the rest are new keys). */
export const REPEAT_SHARE = 0.8;
/** Dedup keys opened before the load, which its repeats draw from. */
export const OPEN_KEYS = 200;

export interface BenchIntegration {
  id: number;
  key: string;
}

/**
 * insertBenchIntegration writes an integration on the rotation, its key stored hashed as the
 * integrations API does. Its per-key rate limit is the highest allowed, so the figure is the
 * intake's, not the limiter's; its storm limit is the default (20 new incidents a minute), so
 * the new keys of the load fold into one storm incident, as they would in production.
 */
export async function insertBenchIntegration(
  db: Db,
  cipher: FieldCipher,
  rotationId: number,
  name: string,
): Promise<BenchIntegration> {
  const { integration, key } = await insertIntegration(db, cipher, {
    name,
    rotationId,
    rateLimit: RATE_LIMIT_MAX,
  });
  return { id: integration.id, key };
}

/** countAlerts: the alert rows an integration has recorded. */
export async function countAlerts(db: Db, integrationId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(alerts)
    .where(eq(alerts.integrationId, integrationId));
  return Number(row?.n ?? 0);
}

/** The PagerDuty Events v2 trigger for a dedup key: the same key, the same body (a repeat). */
export function triggerBody(routingKey: string, dedupKey: string): string {
  return JSON.stringify({
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: `Disk usage above 90% on ${dedupKey}`,
      source: `${dedupKey}.prod.example.com`,
      severity: 'error',
    },
  });
}

/**
 * The requests' headers, a new object each time: autocannon writes the body's content-length
 * into the headers object it is given, and a later fetch sending that object with another body
 * failed (undici's UND_ERR_REQ_CONTENT_LENGTH_MISMATCH).
 */
const headers = () => ({ 'content-type': 'application/json' });

/**
 * openKeys sends a trigger for each of `keys` (10 at a time) so that each is open, retrying a
 * refused one up to five times; it answers the refusals it met, by status (none: every key open).
 */
export async function openKeys(
  base: string,
  routingKey: string,
  keys: string[],
): Promise<Record<string, number>> {
  const queue = [...keys];
  const refused: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let k = queue.shift(); k !== undefined; k = queue.shift()) {
        for (let attempt = 0; attempt < 5; attempt++) {
          let status: string;
          try {
            const res = await fetch(`${base}${ENQUEUE_PATH}`, {
              method: 'POST',
              headers: headers(),
              body: triggerBody(routingKey, k),
            });
            await res.text();
            status = String(res.status);
          } catch (err) {
            // the connection failed: named by its cause (a reset, a refusal)
            const cause = (err as { cause?: { code?: string; message?: string } }).cause;
            status = cause?.code ?? cause?.message ?? String(err);
          }
          if (status === '202') break;
          refused[status] = (refused[status] ?? 0) + 1;
        }
      }
    }),
  );
  return refused;
}

export interface IngestionFigures {
  seconds: number;
  sent: number;
  accepted: number;
  eventsPerSecond: number;
  p50: number;
  p99: number;
  /** answers other than 202, by status */
  refused: Record<string, number>;
  errors: number;
  /** requests prepared (some were still in flight at the end): repeats and new keys */
  repeats: number;
  newKeys: number;
}

/**
 * The load's sequence of dedup keys: REPEAT_SHARE of them repeat one of `open` (the same body
 * again), the rest are new keys. One sequence serves the warm-up and the measured load, so a key
 * new in the warm-up is a repeat, not a new key, if the load sends it again.
 */
export interface LoadMix {
  /** the next request's dedup key */
  next(): string;
  /** keys handed out so far: repeats and new ones */
  repeats: number;
  newKeys: number;
}

export function loadMix(open: readonly string[], label: string): LoadMix {
  // A fixed sequence (not Math.random) so each run sends the same mix.
  let seed = 17;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  let fresh = 0;
  const mix: LoadMix = {
    repeats: 0,
    newKeys: 0,
    next() {
      if (random() < REPEAT_SHARE) {
        mix.repeats += 1;
        return open[Math.floor(random() * open.length)] as string;
      }
      mix.newKeys += 1;
      return `${label}-new-${fresh++}`;
    },
  };
  return mix;
}

/**
 * ingestionLoad: `connections` clients post triggers for `seconds`, their dedup keys drawn from
 * `mix`. Accepted = 202 answers.
 */
export async function ingestionLoad(
  base: string,
  routingKey: string,
  mix: LoadMix,
  seconds: number,
  connections: number,
): Promise<IngestionFigures> {
  const before = { repeats: mix.repeats, newKeys: mix.newKeys };
  let accepted = 0;
  let answered = 0;
  const refused: Record<string, number> = {};
  const r = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          method: 'POST',
          path: ENQUEUE_PATH,
          headers: headers(),
          body: triggerBody(routingKey, mix.next()),
        }),
        onResponse: (status) => {
          answered += 1;
          if (status === 202) accepted += 1;
          else refused[status] = (refused[status] ?? 0) + 1;
        },
      },
    ],
  });
  return {
    seconds,
    // requests answered or failed; those still in flight when the time ran out are not counted
    sent: answered + r.errors + r.timeouts,
    accepted,
    eventsPerSecond: accepted / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    refused,
    errors: r.errors + r.timeouts,
    repeats: mix.repeats - before.repeats,
    newKeys: mix.newKeys - before.newKeys,
  };
}

export interface DistinctFigures {
  sent: number;
  accepted: number;
  seconds: number;
  refused: Record<string, number>;
  errors: number;
}

/** distinctAlerts posts `amount` triggers, each with its own dedup key, as fast as it is answered. */
export async function distinctAlerts(
  base: string,
  routingKey: string,
  amount: number,
  connections: number,
): Promise<DistinctFigures> {
  let next = 0;
  const accepted = new Set<string>();
  const refused: Record<string, number> = {};
  let answered = 0;
  const started = performance.now();
  const r = await autocannon({
    url: base,
    connections,
    amount,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (req, context) => {
          // One request at a time per connection: the context holds the key awaiting its answer.
          context.dedupKey = `distinct-${next++}`;
          return {
            ...req,
            method: 'POST',
            path: ENQUEUE_PATH,
            headers: headers(),
            body: triggerBody(routingKey, context.dedupKey as string),
          };
        },
        onResponse: (status, _body, context) => {
          answered += 1;
          if (status === 202) accepted.add(context.dedupKey as string);
          else refused[status] = (refused[status] ?? 0) + 1;
        },
      },
    ],
  });
  return {
    sent: answered + r.errors + r.timeouts,
    accepted: accepted.size,
    seconds: (performance.now() - started) / 1000,
    refused,
    errors: r.errors + r.timeouts,
  };
}

/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on every Linux build here). */
const USER_HZ = 100;

/**
 * cpuMillis: the CPU time (user + system) each process has used so far, by pid, read from
 * /proc (Linux); a process that has gone, or a system without /proc, is left out. CPU time, not
 * wall time: a figure built from it holds on a busy machine, where throughput does not.
 */
export function cpuMillis(pids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command (in parentheses, which may hold spaces): utime is the 14th
      // field of the line, stime the 15th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ);
    } catch {
      // gone, or no /proc
    }
  }
  return out;
}

/** cpuSpent: the CPU milliseconds spent between two readings (a process new in `after` from 0). */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}
