// The reach figure of issues 33 and 36 (decision 266): incidents raised at 50 a second, each
// paging a person whose rules for high urgency are push, SMS, a call and email, all at once; the
// time from each incident raised (its request sent; and from its 201) to the loopback push service
// (https, VAPID checked, the body decrypted), the loopback Twilio (Messages and Calls APIs) and the
// loopback SMTP server receiving what the person gets.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { notifications } from '../../src/server/db/schema';
import { messageIdOf } from '../../src/server/modules/notifications/channels';
import type { PlacedCall, SentSms } from '../../tests/setup/fake-twilio';
import { deviceOf, type PushService } from '../../tests/setup/push-service';
import type { ReceivedMail } from '../../tests/setup/smtp-server';
import { percentile } from './stats';

/** Incidents raised per second: the issue's 50 (BENCH_REACH_RATE another, to find what keeps up). */
export const REACH_RATE = Number(process.env.BENCH_REACH_RATE ?? 50);
if (!Number.isInteger(REACH_RATE) || REACH_RATE < 1)
  throw new Error(`BENCH_REACH_RATE must be a whole number of 1 or more, not ${REACH_RATE}`);
/** What each person's rules say for high urgency: every method at once. */
export const REACH_RULES = {
  high: [
    { method: 'push', delayMinutes: 0 },
    { method: 'sms', delayMinutes: 0 },
    { method: 'voice', delayMinutes: 0 },
    { method: 'email', delayMinutes: 0 },
  ],
  low: [{ method: 'email', delayMinutes: 0 }],
} as const;
export const REACH_CHANNELS = ['push', 'sms', 'voice', 'email'] as const;
export type ReachChannel = (typeof REACH_CHANNELS)[number];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(
  base: string,
  cookie: string,
  method: string,
  path: string,
  body: unknown,
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: base, cookie },
    body: JSON.stringify(body),
  });
}

/**
 * setUpPeople gives each person the rules above (set by the administrator, as an administrator
 * may for anyone) and one device at the loopback push service (subscribed in their own session,
 * as only they may), through the API; answers each person's device at the push service by their id.
 */
export async function setUpPeople(
  base: string,
  adminCookie: string,
  people: { id: number; cookie: string }[],
  push: PushService,
  rules: unknown = REACH_RULES,
): Promise<Map<number, string>> {
  const devices = new Map<number, string>();
  const queue = [...people];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        const set = await call(
          base,
          adminCookie,
          'PUT',
          `/api/users/${p.id}/notification-rules`,
          rules,
        );
        if (set.status !== 200) throw new Error(`rules of ${p.id}: ${await set.text()}`);
        const { subscription } = push.subscribe();
        const device = await call(base, p.cookie, 'POST', `/api/users/${p.id}/push-subscriptions`, {
          ...subscription,
          name: 'Bench phone',
        });
        if (device.status !== 201) throw new Error(`device of ${p.id}: ${await device.text()}`);
        devices.set(p.id, deviceOf(subscription.endpoint));
      }
    }),
  );
  return devices;
}

/**
 * An incident the load raised: its id, the rotation it was raised on, when its request left and
 * when its 201 came back.
 */
export interface Raised {
  id: number;
  rotationId: number;
  sentAt: number;
  acceptedAt: number;
}

/**
 * raiseAtRate raises one high-urgency incident on each rotation in turn, `rate` a second (each
 * request leaves on its own schedule, whether or not the ones before were answered), and answers
 * those accepted and the refusals by status.
 */
export async function raiseAtRate(
  base: string,
  cookie: string,
  rotationIds: number[],
  rate: number,
): Promise<{
  raised: Raised[];
  refused: Record<string, number>;
  /** from the first request to the last sent */
  seconds: number;
  /** from the first request to the last answer */
  answeredSeconds: number;
}> {
  const raised: Raised[] = [];
  const refused: Record<string, number> = {};
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (const [i, rotationId] of rotationIds.entries()) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const sentAt = performance.now();
    pending.push(
      call(base, cookie, 'POST', '/api/incidents', {
        rotationId,
        title: `Reach bench ${i + 1}: checkout is failing`,
        urgency: 'high',
      })
        .then(async (res) => {
          const acceptedAt = performance.now();
          const body = (await res.json().catch(() => null)) as {
            id?: number;
            message?: string;
          } | null;
          if (res.status === 201 && typeof body?.id === 'number') {
            raised.push({ id: body.id, rotationId, sentAt, acceptedAt });
          } else {
            const why = `${res.status} "${body?.message ?? ''}"`;
            refused[why] = (refused[why] ?? 0) + 1;
          }
        })
        .catch((err: Error) => {
          refused[err.message] = (refused[err.message] ?? 0) + 1;
        }),
    );
  }
  const seconds = (performance.now() - start) / 1000;
  await Promise.all(pending);
  return { raised, refused, seconds, answeredSeconds: (performance.now() - start) / 1000 };
}

/**
 * The incident a message is about: the push's link to it; the page in the outbox row's dedupe key,
 * which is Twilio's idempotency token and, digested (messageIdOf), the email's Message-ID.
 */
const pushIncident = (text: string): number | null => {
  try {
    const open = (JSON.parse(text) as { data?: { open?: string } }).data?.open ?? '';
    const id = /^\/incidents\/(\d+)$/.exec(open)?.[1];
    return id === undefined ? null : Number(id);
  } catch {
    return null;
  }
};
const tokenIncident = (token: string | undefined): number | null => {
  const id = /^page:(\d+):/.exec(token ?? '')?.[1];
  return id === undefined ? null : Number(id);
};

/**
 * emailKeys: for each raised incident, the Message-ID of the email paging its person, and that
 * email's dedupe key: the first step's, `page:<incident>:sent:<person>:email` (sentKey in
 * incidents/incident-step-messages.ts, dedupeKeyOf in notifications/outbox.ts), as its SMS's and
 * call's idempotency tokens are `page:<incident>:sent:<person>:sms` and `…:voice`.
 */
export function emailKeys(
  raised: Raised[],
  personOf: (rotationId: number) => number | undefined,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of raised) {
    const person = personOf(r.rotationId);
    if (person === undefined) continue;
    const key = `page:${r.id}:sent:${person}:email`;
    out.set(messageIdOf(key), key);
  }
  return out;
}

/** messageIdIn: the Message-ID header of a raw email, angle brackets included. */
const messageIdIn = (raw: string): string | undefined => {
  const end = raw.indexOf('\r\n\r\n');
  return /^Message-ID:\s*(<[^>]+>)/im.exec(end < 0 ? raw : raw.slice(0, end))?.[1];
};

/**
 * arrivals: when each incident's message first reached its provider, by channel; an email is
 * known by its Message-ID among `keys` (emailKeys).
 */
export function arrivals(
  push: PushService,
  twilio: { sent: SentSms[]; calls: PlacedCall[] },
  smtp: { received: ReceivedMail[] },
  keys: Map<string, string>,
): Record<ReachChannel, Map<number, number>> {
  const first = (items: { id: number | null; at: number | undefined }[]) => {
    const out = new Map<number, number>();
    for (const { id, at } of items) {
      if (id === null || at === undefined) continue;
      out.set(id, Math.min(out.get(id) ?? at, at));
    }
    return out;
  };
  return {
    push: first(push.received.map((r) => ({ id: pushIncident(r.text), at: r.receivedAt }))),
    sms: first(
      twilio.sent.map((s) => ({ id: tokenIncident(s.idempotencyToken), at: s.receivedAt })),
    ),
    voice: first(
      twilio.calls.map((c) => ({ id: tokenIncident(c.idempotencyToken), at: c.receivedAt })),
    ),
    email: first(
      smtp.received.map((m) => {
        const messageId = messageIdIn(m.raw);
        const key = messageId === undefined ? undefined : keys.get(messageId);
        return { id: tokenIncident(key), at: m.receivedAt };
      }),
    ),
  };
}

/**
 * awaitArrivals waits until every raised incident's message has reached each provider, or until
 * `timeoutMs` has passed since the call.
 */
export async function awaitArrivals(
  raised: Raised[],
  read: () => Record<ReachChannel, Map<number, number>>,
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const got = read();
    if (REACH_CHANNELS.every((c) => raised.every((r) => got[c].has(r.id)))) return;
    await sleep(100);
  }
}

export interface ChannelFigures {
  received: number;
  missed: number;
  /**
   * from the incident accepted (its 201 read by the bench) to the provider receiving, ms: below 0
   * when the answer reached the bench after the message (a late 201 on an overloaded server)
   */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** from the incident raised (its request sent) to the provider receiving: the whole way, ms */
  fromRaised: { p50: number; p95: number; p99: number };
}

/** reachFigures: per channel, from each incident accepted to its message received, in ms. */
export function reachFigures(
  raised: Raised[],
  got: Record<ReachChannel, Map<number, number>>,
): Record<ReachChannel, ChannelFigures> {
  const out = {} as Record<ReachChannel, ChannelFigures>;
  for (const channel of REACH_CHANNELS) {
    const since = (from: (r: Raised) => number) =>
      raised
        .flatMap((r) => {
          const at = got[channel].get(r.id);
          return at === undefined ? [] : [at - from(r)];
        })
        .sort((a, b) => a - b);
    const ms = since((r) => r.acceptedAt);
    const total = since((r) => r.sentAt);
    out[channel] = {
      received: ms.length,
      missed: raised.length - ms.length,
      p50: Math.round(percentile(ms, 50)),
      p95: Math.round(percentile(ms, 95)),
      p99: Math.round(percentile(ms, 99)),
      max: Math.round(ms.at(-1) ?? Number.NaN),
      fromRaised: {
        p50: Math.round(percentile(total, 50)),
        p95: Math.round(percentile(total, 95)),
        p99: Math.round(percentile(total, 99)),
      },
    };
  }
  return out;
}

/** acceptFigures: how long the POST itself took, p50 and p95, in ms. */
export function acceptFigures(raised: Raised[]): { p50: number; p95: number } {
  const ms = raised.map((r) => r.acceptedAt - r.sentAt).sort((a, b) => a - b);
  return { p50: Math.round(percentile(ms, 50)), p95: Math.round(percentile(ms, 95)) };
}

/**
 * whyMissed: for the incidents whose message on a channel never arrived, what their outbox rows
 * say (status, attempts, why held, last error), counted; read with the server stopped.
 */
export async function whyMissed(
  db: Db,
  channel: ReachChannel,
  incidentIds: number[],
): Promise<Record<string, number>> {
  if (incidentIds.length === 0) return {};
  const rows = await db
    .select({
      status: notifications.status,
      lastError: notifications.lastError,
      held: notifications.held,
      attempts: notifications.attempts,
      n: sql<number>`count(*)::int`,
    })
    .from(notifications)
    .where(and(eq(notifications.channel, channel), inArray(notifications.pageId, incidentIds)))
    .groupBy(
      notifications.status,
      notifications.lastError,
      notifications.held,
      notifications.attempts,
    );
  const out: Record<string, number> = {};
  for (const r of rows) {
    const why = `${r.status}, ${r.attempts} attempts${r.held ? `, held: ${r.held}` : ''}${r.lastError ? `: ${r.lastError}` : ''}`;
    out[why] = Number(r.n);
  }
  return out;
}
