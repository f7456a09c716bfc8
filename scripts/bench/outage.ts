// A real outage's load (issue 36): `BENCH_ONLY=outage npm run bench`. 200 people keep the
// dashboard open (its reads, polled as the client polls them, and an event stream each, re-reading
// what each change shows as the client does), first quietly, then while alerts arrive at 200 a
// second through the PagerDuty Events v2 route, new incidents page people through the loopback
// push service, Twilio and SMTP server, open incidents climb to their second step, people
// acknowledge from the push's action, an SMS reply and a call, and batons are passed. run.ts
// starts the server and records the rows; this file seeds, drives and measures.
import http from 'node:http';
import { inArray, sql } from 'drizzle-orm';
import { showsChange } from '../../src/client/features/live/lib/invalidations';
import { RoundPace } from '../../src/client/features/live/lib/re-reads';
import type { FieldCipher } from '../../src/server/crypto/field-crypto';
import type { Db } from '../../src/server/db/client';
import { pages, rotations } from '../../src/server/db/schema';
import { raiseIncident } from '../../src/server/modules/incidents/incident-engine';
import { messageIdOf } from '../../src/server/modules/notifications/channels';
import { twilioSignature } from '../../src/server/modules/sms-replies/twilio-signature';
import { followNewPolicy } from '../../src/server/seed/factories';
import type { EscalationStep } from '../../src/shared/contracts/escalation-policies';
import type { ChangeEvent } from '../../src/shared/contracts/live-events';
import type { CallbackPost, startFakeTwilio } from '../../tests/setup/fake-twilio';
import type { PushService } from '../../tests/setup/push-service';
import type { ReceivedMail } from '../../tests/setup/smtp-server';
import { ENQUEUE_PATH, insertBenchIntegration, triggerBody } from './alert-ingestion';
import { arrivals, REACH_CHANNELS, type ReachChannel, whyMissed } from './reach-the-person';
import { type SeededOrganisation, seedOrganisation } from './seed';
import { percentile } from './stats';

/** the people who keep the dashboard open, each the member of one rotation */
export const OUTAGE_PEOPLE = 200;
const MEMBERS = 5;
const ROTATIONS = OUTAGE_PEOPLE / MEMBERS;
/** alerts a second through the ingestion route during the outage */
export const ALERT_RATE = 200;
/** share of the alerts with a key never sent before: each raises an incident (4 a second) */
const NEW_KEY_SHARE = 0.02;
/** dedup keys opened (and acknowledged) per integration before the quiet reads: the repeats' */
const OPEN_KEYS_PER_INTEGRATION = 5;
/** baton passes a second during the outage */
export const PASS_RATE = 2;
/** open incidents whose second step falls due during the outage, per second of it */
const CLIMBS_PER_SECOND = 2;
/** how long a person takes to act on a page that reached them */
const ACK_DELAY_MS = 2_000;
/** the client's poll interval of the dashboard's live reads (page-delivery failures, incidents, rotations) */
const POLL_MS = 15_000;
const MINUTE = 60_000;
/**
 * What each person's rules say: high urgency, every method at once (the reach figure's); low
 * urgency, push and email. The opened keys and the climbing incidents are low urgency, so the
 * limit of three texts and calls a person a quarter hour (decision 254) is left to the outage's
 * new incidents.
 */
export const OUTAGE_RULES = {
  high: [
    { method: 'push', delayMinutes: 0 },
    { method: 'sms', delayMinutes: 0 },
    { method: 'voice', delayMinutes: 0 },
    { method: 'email', delayMinutes: 0 },
  ],
  low: [
    { method: 'push', delayMinutes: 0 },
    { method: 'email', delayMinutes: 0 },
  ],
} as const;
/** a write still unanswered this long after the outage's end is given up as unanswered */
const DRAIN_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** inTurns runs `work` on each item, eight at a time */
async function inTurns<T>(items: T[], work: (item: T, index: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i], i);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The organisation.

export interface OutageOrganisation {
  org: SeededOrganisation;
  /** one integration per rotation, in the rotations' order */
  integrations: { id: number; key: string; rotationId: number }[];
  /** the seeded open incidents' second steps: due moment (epoch ms) by incident id */
  climbs: Map<number, number>;
}

/**
 * seedOutage writes OUTAGE_PEOPLE people with phones, each the member of one of ROTATIONS
 * rotations; each rotation follows a policy that pages its holder at once and the next member a
 * minute later, and has an integration. Then it raises `climbs` incidents on the rotations (as
 * the engine raises them) and moves each one's first step back so that its second step falls due
 * at one of `climbs` moments spread evenly over [`climbFrom`, `climbFrom` + `spreadMs`).
 */
export async function seedOutage(
  db: Db,
  cipher: FieldCipher,
  climbFrom: number,
  spreadMs: number,
  climbs: number,
): Promise<OutageOrganisation> {
  const now = new Date();
  const org = await seedOrganisation(
    db,
    cipher,
    {
      users: OUTAGE_PEOPLE,
      rotations: ROTATIONS,
      membersPerRotation: MEMBERS,
      handoffs: ROTATIONS * 10,
      everyoneHasPhone: true,
    },
    now,
  );
  const steps: EscalationStep[] = [
    {
      delayMinutes: 1,
      targets: [{ type: 'rotation-holder', id: 0 }],
      assignment: 'everyone',
      activeHours: null,
    },
    {
      delayMinutes: 1,
      targets: [{ type: 'rotation-next', id: 0 }],
      assignment: 'everyone',
      activeHours: null,
    },
  ];
  const integrations: OutageOrganisation['integrations'] = [];
  const policyOf = new Map<number, number>();
  for (const r of org.rotations) {
    const own = steps.map((s) => ({ ...s, targets: s.targets.map((t) => ({ ...t, id: r.id })) }));
    policyOf.set(
      r.id,
      await followNewPolicy(db, r.id, own, {
        createdById: org.admin.id,
        now,
        name: `Outage ${r.id}`,
      }),
    );
    const integration = await insertBenchIntegration(db, cipher, r.id, `Outage source ${r.id}`);
    integrations.push({ ...integration, rotationId: r.id });
  }
  const rows = await db
    .select({ id: rotations.id, name: rotations.name })
    .from(rotations)
    .where(inArray(rotations.id, [...policyOf.keys()]));
  const dues = new Map<number, number>();
  await db.transaction(async (tx) => {
    for (let i = 0; i < climbs; i++) {
      const rotation = rows[i % rows.length];
      const raised = await raiseIncident(
        tx,
        { cipher },
        {
          rotation: { ...rotation, escalationPolicyId: policyOf.get(rotation.id) as number },
          raisedBy: null,
          source: 'system',
          message: `Outage bench: replication lag on ${rotation.name} (${i})`,
          severity: 'P3',
          urgency: 'low',
          now,
        },
      );
      dues.set(raised.id, climbFrom + Math.floor((i * spreadMs) / climbs));
    }
  });
  for (const [id, due] of dues) {
    await db
      .update(pages)
      .set({ stepStartedAt: new Date(due - MINUTE) })
      .where(sql`${pages.id} = ${id}`);
  }
  return { org, integrations, climbs: dues };
}

// ---------------------------------------------------------------------------------------------
// Requests: every answer is kept, by what sent it and when.

type Phase = 'warm-up' | 'quiet' | 'outage' | 'after';
/** what a figure is made of: the phase's requests of one kind */
interface Sample {
  phase: Phase;
  /** read: the dashboard's GETs; the rest the outage's writes */
  kind: 'read' | 'alert' | 'pass' | 'ack-push' | 'ack-sms' | 'ack-call';
  /** the route, for the errors' table */
  route: string;
  status: number;
  ms: number;
  /** reads: a poll, a re-read after a change, or the first load */
  cause?: 'load' | 'poll' | 'change';
}

class Clock {
  quietAt = Number.POSITIVE_INFINITY;
  outageAt = Number.POSITIVE_INFINITY;
  endAt = Number.POSITIVE_INFINITY;
  phase(at = Date.now()): Phase {
    if (at < this.quietAt) return 'warm-up';
    if (at < this.outageAt) return 'quiet';
    if (at < this.endAt) return 'outage';
    return 'after';
  }
}

/** lowBody: a PagerDuty trigger of severity warning (P3, low urgency) for a key */
const lowBody = (routingKey: string, dedupKey: string) =>
  triggerBody(routingKey, dedupKey).replace('"severity":"error"', '"severity":"warning"');

/** postFrom: a POST from one loopback address (a phone of its own, or one of Twilio's). */
function postFrom(
  url: string,
  localAddress: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.setTimeout(DRAIN_MS, () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', (err) => resolve({ status: 0, body: err.message }));
    req.end(body);
  });
}

/** a loopback address of its own for person or caller `n`: rate limits are per client address */
const addressOf = (n: number, block = 0) =>
  `127.${10 + block}.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;

// ---------------------------------------------------------------------------------------------
// The people: the dashboard's reads, as src/client/app/routes/dashboard.tsx makes them for an
// on-call member (captured once from a browser): each query's key (which changes it shows,
// src/client/features/live/lib/invalidations.ts), the requests it sends, and how often the client
// polls it (0: read once, then only on a change).

interface DashboardQuery {
  key: readonly unknown[];
  paths: string[];
  everyMs: number;
}

function dashboardQueries(now: Date): DashboardQuery[] {
  const from = new Date(now);
  from.setUTCMinutes(0, 0, 0);
  const to = new Date(from.getTime() + 8 * 86_400_000);
  const span = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
  return [
    { key: ['/api/help/links'], paths: ['/api/help/links'], everyMs: 0 },
    { key: ['/api/inbox', 'count'], paths: ['/api/inbox?limit=1'], everyMs: 0 },
    {
      key: ['/api/user/page-delivery-failures'],
      paths: ['/api/user/page-delivery-failures'],
      everyMs: 15_000,
    },
    { key: ['/api/time-off/warnings', 'all'], paths: ['/api/time-off/warnings'], everyMs: 60_000 },
    {
      key: ['/api/incidents', 'mine'],
      paths: ['/api/incidents?mine=true&open=true&limit=20'],
      everyMs: 15_000,
    },
    { key: ['/api/user/shift-notices'], paths: ['/api/user/shift-notices'], everyMs: 60_000 },
    { key: ['/api/coverage-requests'], paths: ['/api/coverage-requests'], everyMs: 30_000 },
    {
      key: ['/api/calendar', from.toISOString(), to.toISOString()],
      paths: [`/api/calendar?${span}`],
      everyMs: 60_000,
    },
    { key: ['/api/user/rotations'], paths: ['/api/user/rotations'], everyMs: 0 },
    { key: ['/api/auth/user'], paths: ['/api/auth/user'], everyMs: 0 },
    {
      key: ['/api/handoffs/recent', { limit: 5 }],
      paths: ['/api/handoffs/recent?limit=5'],
      everyMs: 0,
    },
    // fetchRotations asks who is signed in first, then reads the list
    { key: ['/api/rotations'], paths: ['/api/auth/user', '/api/rotations'], everyMs: 15_000 },
  ];
}

/** the route of a path, for the tables: no query string */
const routeOf = (path: string) => path.split('?')[0];

interface Person {
  id: number;
  cookie: string;
  /** a query's fetch in flight, and whether the query holds data */
  inFlight: Map<number, AbortController>;
  loaded: Set<number>;
  pending: ChangeEvent[];
  seen: Set<number>;
  flushTimer: ReturnType<typeof setTimeout> | null;
  /** when the next round of re-reads is due (decision 286), and the queries the last found being read */
  pace: RoundPace;
  again: Set<number>;
  stream: http.ClientRequest | null;
  events: number;
}

/**
 * People: OUTAGE_PEOPLE browsers on the dashboard. Each loads it (its first reads spread over the
 * poll interval), polls as the client does, holds an event stream, and re-reads as useLiveUpdates
 * does (decisions 283 and 286): the changes of 100 ms together, rounds at least a second apart
 * and further apart while changes keep coming, a query being read left to finish and read again
 * in the next round (counted as carried).
 */
class People {
  readonly samples: Sample[] = [];
  carried = 0;
  streamFailures = 0;
  /** reads still unanswered when the people stopped */
  unanswered = 0;
  /** reads sent during the outage and not yet answered */
  outstanding = 0;
  private readonly queries: DashboardQuery[];
  private readonly people: Person[];
  private timers: ReturnType<typeof setTimeout>[] = [];
  private stopped = false;

  constructor(
    private readonly base: string,
    cookies: { id: number; cookie: string }[],
    private readonly clock: Clock,
  ) {
    this.queries = dashboardQueries(new Date());
    this.people = cookies.map((c) => ({
      ...c,
      inFlight: new Map(),
      loaded: new Set(),
      pending: [],
      seen: new Set(),
      flushTimer: null,
      pace: new RoundPace(),
      again: new Set(),
      stream: null,
      events: 0,
    }));
  }

  get eventsReceived(): number {
    return this.people.reduce((s, p) => s + p.events, 0);
  }

  /** start: each person's dashboard opens at its own moment within the poll interval */
  start(): void {
    this.people.forEach((person, i) => {
      const offset = Math.floor((i * POLL_MS) / this.people.length);
      this.timers.push(
        setTimeout(() => {
          if (this.stopped) return;
          this.openStream(person);
          for (let q = 0; q < this.queries.length; q++) this.read(person, q, 'load');
          let tick = 0;
          const poll = setInterval(() => {
            tick += 1;
            this.queries.forEach((query, q) => {
              if (query.everyMs > 0 && (tick * POLL_MS) % query.everyMs === 0)
                this.read(person, q, 'poll');
            });
          }, POLL_MS);
          this.timers.push(poll as unknown as ReturnType<typeof setTimeout>);
        }, offset),
      );
    });
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    for (const p of this.people) {
      p.stream?.destroy();
      if (p.flushTimer) clearTimeout(p.flushTimer);
      this.unanswered += p.inFlight.size;
      for (const c of p.inFlight.values()) c.abort();
    }
  }

  private read(person: Person, q: number, cause: 'load' | 'poll' | 'change'): void {
    if (this.stopped) return;
    // a poll joins the read in flight; a change's round carries it (see flush)
    if (person.inFlight.has(q)) return;
    const controller = new AbortController();
    person.inFlight.set(q, controller);
    void (async () => {
      for (const path of this.queries[q].paths) {
        const sent = Date.now();
        const phase = this.clock.phase(sent);
        if (phase === 'outage') this.outstanding += 1;
        try {
          const separator = path.includes('?') ? '&' : '?';
          const res = await fetch(`${this.base}${path}${separator}_t=${sent}`, {
            headers: { cookie: person.cookie },
            signal: controller.signal,
          });
          await res.arrayBuffer();
          this.samples.push({
            phase,
            kind: 'read',
            route: routeOf(path),
            status: res.status,
            ms: Date.now() - sent,
            cause,
          });
          if (res.status !== 200) break;
        } catch (err) {
          if (controller.signal.aborted) return;
          this.samples.push({
            phase,
            kind: 'read',
            route: routeOf(path),
            status: 0,
            ms: Date.now() - sent,
            cause,
          });
          void err;
          break;
        } finally {
          if (phase === 'outage') this.outstanding -= 1;
        }
      }
      if (person.inFlight.get(q) === controller) person.inFlight.delete(q);
      person.loaded.add(q);
    })();
  }

  private openStream(person: Person): void {
    let buffer = '';
    const req = http.get(
      `${this.base}/api/events`,
      { headers: { cookie: person.cookie, accept: 'text/event-stream' }, agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          this.streamFailures += 1;
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            this.hear(person, message);
          }
        });
      },
    );
    req.on('error', () => {
      if (!this.stopped) this.streamFailures += 1;
    });
    person.stream = req;
  }

  private hear(person: Person, message: string): void {
    const name = /^event: (\w+)$/m.exec(message)?.[1];
    const data = /^data: (.*)$/m.exec(message)?.[1];
    if (name === 'resync') {
      person.events += 1;
      for (let q = 0; q < this.queries.length; q++) person.again.add(q);
      this.schedule(person);
      return;
    }
    if (name !== 'change' || !data) return;
    const event = JSON.parse(data) as ChangeEvent;
    if (person.seen.has(event.id)) return;
    person.seen.add(event.id);
    person.events += 1;
    person.pending.push(event);
    this.schedule(person);
  }

  private schedule(person: Person): void {
    person.flushTimer ??= setTimeout(() => this.flush(person), person.pace.delay(Date.now()));
  }

  /** a round of re-reads: the queries that show a change, or that were being read last round */
  private flush(person: Person): void {
    person.flushTimer = null;
    person.pace.ran(Date.now());
    const events = person.pending;
    const carried = person.again;
    person.pending = [];
    person.again = new Set();
    this.queries.forEach((query, q) => {
      if (!carried.has(q) && !events.some((e) => showsChange(query.key, e, person.id))) return;
      if (person.inFlight.has(q)) {
        person.again.add(q);
        this.carried += 1;
      } else this.read(person, q, 'change');
    });
    if (person.again.size > 0) this.schedule(person);
  }
}

// ---------------------------------------------------------------------------------------------
// The outage's writes: alerts, passes, acknowledgements.

interface NewKey {
  key: string;
  rotationId: number;
  sentAt: number;
  acceptedAt: number | null;
}

/**
 * alertsAtRate posts ALERT_RATE triggers a second from `from` to `until` (epoch ms), open loop
 * (each on its schedule, answered or not), over the integrations in turn: NEW_KEY_SHARE of them
 * with a key of their own, the rest repeating one of the keys opened before.
 */
async function alertsAtRate(
  base: string,
  integrations: OutageOrganisation['integrations'],
  openKeys: (k: number) => string,
  clock: Clock,
  samples: Sample[],
): Promise<{ newKeys: NewKey[]; sent: number; lagMs: number }> {
  let seed = 36;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const newKeys: NewKey[] = [];
  const pending: Promise<void>[] = [];
  let sent = 0;
  /** how far behind its schedule this process sent (a busy machine's load generator) */
  let lagMs = 0;
  const start = clock.outageAt;
  for (let i = 0; ; i++) {
    const due = start + (i * 1000) / ALERT_RATE;
    if (due >= clock.endAt) break;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    lagMs = Math.max(lagMs, Date.now() - due);
    const k = i % integrations.length;
    const integration = integrations[k];
    const fresh = random() < NEW_KEY_SHARE;
    const key = fresh
      ? `o${k}-new-${i}`
      : openKeys(k * OPEN_KEYS_PER_INTEGRATION + (i % OPEN_KEYS_PER_INTEGRATION));
    const sentAt = Date.now();
    const record: NewKey | null = fresh
      ? { key, rotationId: integration.rotationId, sentAt, acceptedAt: null }
      : null;
    if (record) newKeys.push(record);
    sent += 1;
    pending.push(
      fetch(`${base}${ENQUEUE_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: fresh ? triggerBody(integration.key, key) : lowBody(integration.key, key),
        signal: AbortSignal.timeout(Math.max(1_000, clock.endAt + DRAIN_MS - Date.now())),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          const at = Date.now();
          if (record && res.status === 202) record.acceptedAt = at;
          samples.push({
            phase: clock.phase(sentAt),
            kind: 'alert',
            route: `POST ${ENQUEUE_PATH}`,
            status: res.status,
            ms: at - sentAt,
          });
        })
        .catch(() => {
          samples.push({
            phase: clock.phase(sentAt),
            kind: 'alert',
            route: `POST ${ENQUEUE_PATH}`,
            status: 0,
            ms: Date.now() - sentAt,
          });
        }),
    );
  }
  await Promise.all(pending);
  return { newKeys, sent, lagMs };
}

/** passesAtRate passes PASS_RATE batons a second, each rotation in turn, from its holder to the next member. */
async function passesAtRate(
  base: string,
  org: SeededOrganisation,
  cookies: Map<number, string>,
  clock: Clock,
  samples: Sample[],
): Promise<void> {
  const busy = new Set<number>();
  const pending: Promise<void>[] = [];
  for (let i = 0; ; i++) {
    const due = clock.outageAt + (i * 1000) / PASS_RATE;
    if (due >= clock.endAt) break;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    const rotation = org.rotations[i % org.rotations.length];
    if (busy.has(rotation.id)) continue;
    busy.add(rotation.id);
    const holder = rotation.memberIds[rotation.holderIndex];
    const next = rotation.memberIds[(rotation.holderIndex + 1) % rotation.memberIds.length];
    const sentAt = Date.now();
    pending.push(
      fetch(`${base}/api/rotations/${rotation.id}/handoff`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: base,
          cookie: cookies.get(holder) as string,
        },
        body: JSON.stringify({ toUserId: next }),
        signal: AbortSignal.timeout(Math.max(1_000, clock.endAt + DRAIN_MS - Date.now())),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200)
            rotation.holderIndex = (rotation.holderIndex + 1) % rotation.memberIds.length;
          samples.push({
            phase: clock.phase(sentAt),
            kind: 'pass',
            route: 'POST /api/rotations/:id/handoff',
            status: res.status,
            ms: Date.now() - sentAt,
          });
        })
        .catch(() => {
          samples.push({
            phase: clock.phase(sentAt),
            kind: 'pass',
            route: 'POST /api/rotations/:id/handoff',
            status: 0,
            ms: Date.now() - sentAt,
          });
        })
        .finally(() => busy.delete(rotation.id)),
    );
  }
  await Promise.all(pending);
}

type Twilio = Awaited<ReturnType<typeof startFakeTwilio>>;

/** how an incident's person answers: by the push's action, an SMS reply, a call, or not at all */
const answerOf = (incidentId: number): 'push' | 'sms' | 'call' | null =>
  (['push', 'push', 'sms', 'call'] as const)[incidentId % 10] ?? null;

/** the incident a push, an SMS or a call is about */
const pushIncident = (text: string) => {
  try {
    const data = (JSON.parse(text) as { data?: { open?: string; acknowledge?: string } }).data;
    const id = /^\/incidents\/(\d+)$/.exec(data?.open ?? '')?.[1];
    return { id: id === undefined ? null : Number(id), ack: data?.acknowledge ?? null };
  } catch {
    return { id: null, ack: null };
  }
};
const tokenIncident = (token: string | undefined) => {
  const id = /^page:(\d+):/.exec(token ?? '')?.[1];
  return id === undefined ? null : Number(id);
};

/**
 * Responders: from the outage's start, each page that reaches a person's device is answered as
 * answerOf says, ACK_DELAY_MS after it arrived: the push's Acknowledge (the service worker's POST
 * of its link) from the person's own address, an SMS reply of the code it carries, or the call
 * answered and 1 pressed (Twilio's signed callbacks, from Twilio's addresses). One answer an
 * incident; the answers' statuses are kept, and whether Baton said "Acknowledged".
 */
class Responders {
  acknowledged = { push: 0, sms: 0, call: 0 };
  notAcknowledged: Record<string, number> = {};
  private readonly answered = new Set<number>();
  private cursors = { push: 0, sms: 0, call: 0 };
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly pending: Promise<void>[] = [];
  private callers = 0;

  constructor(
    private readonly base: string,
    private readonly push: PushService,
    private readonly twilio: Twilio,
    private readonly personOfDevice: Map<string, number>,
    private readonly personOfPhone: Map<string, number>,
    private readonly clock: Clock,
    private readonly samples: Sample[],
  ) {}

  start(): void {
    this.cursors = {
      push: this.push.received.length,
      sms: this.twilio.sent.length,
      call: this.twilio.calls.length,
    };
    this.timer = setInterval(() => this.look(), 100);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.pending);
  }

  private claim(incidentId: number | null, how: 'push' | 'sms' | 'call'): boolean {
    if (incidentId === null || answerOf(incidentId) !== how || this.answered.has(incidentId))
      return false;
    if (this.clock.phase() !== 'outage' && this.clock.phase() !== 'after') return false;
    this.answered.add(incidentId);
    return true;
  }

  private later(work: () => Promise<void>): void {
    this.pending.push(sleep(ACK_DELAY_MS).then(work));
  }

  private note(kind: Sample['kind'], route: string, sentAt: number, status: number, said: string) {
    this.samples.push({
      phase: this.clock.phase(sentAt),
      kind,
      route,
      status,
      ms: Date.now() - sentAt,
    });
    const how = kind === 'ack-push' ? 'push' : kind === 'ack-sms' ? 'sms' : 'call';
    if (/you acknowledged the page|Acknowledged\. Thank you|"state":"acknowledged"/.test(said))
      this.acknowledged[how] += 1;
    else {
      const why = `${how} ${status} ${/<Message>([^<]{0,60})|<Say[^>]*>([^<]{0,60})|"message":"([^"]{0,60})/.exec(said)?.slice(1).find(Boolean) ?? ''}`;
      this.notAcknowledged[why] = (this.notAcknowledged[why] ?? 0) + 1;
    }
  }

  private look(): void {
    const { push, twilio } = this;
    for (; this.cursors.push < push.received.length; this.cursors.push++) {
      const got = push.received[this.cursors.push];
      const { id, ack } = pushIncident(got.text);
      const person = this.personOfDevice.get(got.device);
      if (!ack || person === undefined || !this.claim(id, 'push')) continue;
      this.later(async () => {
        const sentAt = Date.now();
        // the service worker's fetch is same-origin: the browser names Baton's origin
        const r = await postFrom(`${this.base}${ack}`, addressOf(person), '', {
          origin: this.base,
        });
        this.note('ack-push', 'POST /api/pages/ack/:token', sentAt, r.status, r.body);
      });
    }
    for (; this.cursors.sms < twilio.sent.length; this.cursors.sms++) {
      const sms = twilio.sent[this.cursors.sms];
      const code = /Reply (\d{4}) to acknowledge/.exec(sms.body)?.[1];
      const person = this.personOfPhone.get(sms.to);
      if (!code || person === undefined || !this.claim(tokenIncident(sms.idempotencyToken), 'sms'))
        continue;
      const n = this.cursors.sms;
      this.later(async () => {
        const url = `${this.base}/api/twilio/sms`;
        const form: [string, string][] = [
          ['AccountSid', twilio.accountSid],
          ['MessageSid', `SMoutage${n}`],
          ['From', sms.to],
          ['To', sms.from],
          ['Body', code],
        ];
        const sentAt = Date.now();
        const r = await postFrom(
          url,
          addressOf(this.callers++, 1),
          new URLSearchParams(form).toString(),
          {
            'content-type': 'application/x-www-form-urlencoded',
            'x-twilio-signature': twilioSignature(twilio.authToken, url, form),
          },
        );
        this.note('ack-sms', 'POST /api/twilio/sms', sentAt, r.status, r.body);
      });
    }
    for (; this.cursors.call < twilio.calls.length; this.cursors.call++) {
      const call = twilio.calls[this.cursors.call];
      if (!this.claim(tokenIncident(call.idempotencyToken), 'call')) continue;
      this.later(async () => {
        const from = addressOf(this.callers++, 1);
        const post: CallbackPost = (url, form, headers) =>
          postFrom(url, from, new URLSearchParams(form as [string, string][]).toString(), {
            'content-type': 'application/x-www-form-urlencoded',
            ...headers,
          });
        const driven = twilio.drive(call, post);
        let sentAt = Date.now();
        const answered = await driven.answer();
        this.samples.push({
          phase: this.clock.phase(sentAt),
          kind: 'ack-call',
          route: 'POST /api/twilio/voice/:id/:token',
          status: answered.status,
          ms: Date.now() - sentAt,
        });
        if (answered.status !== 200) {
          this.note(
            'ack-call',
            'POST /api/twilio/voice/:id/:token',
            sentAt,
            answered.status,
            answered.body,
          );
          return;
        }
        sentAt = Date.now();
        const pressed = await driven.press('1');
        this.note(
          'ack-call',
          'POST /api/twilio/voice/:id/:token/gather',
          sentAt,
          pressed.status,
          pressed.body,
        );
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

/** What run.ts gives: the engine's store, the built server, sign-in, memory. */
export interface OutageHarness {
  label: string;
  quick: boolean;
  /** runs `work` on the engine's database, the server stopped */
  seed: <T>(work: (db: Db, cipher: FieldCipher) => Promise<T>) => Promise<T>;
  /** starts the built server with these variables besides the bench's own; answers where it listens */
  startServer: (
    extraEnv: (base: string) => Record<string, string>,
  ) => Promise<{ base: string; pid: number }>;
  /** stops the built server (its database can then be read) */
  stopServer: () => Promise<void>;
  login: (base: string, email: string) => Promise<string>;
  loginAll: (base: string, org: SeededOrganisation) => Promise<Map<number, string>>;
  sampleRss: (pid: number) => { stop: () => number };
  setUpPeople: (
    base: string,
    adminCookie: string,
    people: { id: number; cookie: string }[],
    rules: unknown,
  ) => Promise<Map<number, string>>;
  push: PushService;
  twilio: Twilio;
  smtp: { url: string; received: ReceivedMail[] };
  log: (message: string) => void;
}

export interface OutageRow {
  figure: string;
  measured: string;
  target: string;
  met: boolean | null;
}

/** how long the server's start, sign-ins and set-up may take before the warm-up */
const SET_UP_ALLOWANCE_MS = 100_000;

interface Stats {
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function statsOf(samples: Sample[], seconds: number): Stats {
  const ok = samples.filter((s) => s.status >= 200 && s.status < 300);
  const sorted = ok.map((s) => s.ms).sort((a, b) => a - b);
  return {
    count: ok.length,
    perSecond: ok.length / seconds,
    p50: Math.round(percentile(sorted, 50)),
    p99: Math.round(percentile(sorted, 99)),
    non2xx: samples.length - ok.length,
  };
}

/**
 * outageFigures seeds, starts the server, signs the people in, runs the warm-up, the quiet reads
 * and the outage for `seconds` each, and answers the rows to print.
 */
export async function outageFigures(h: OutageHarness, seconds: number): Promise<OutageRow[]> {
  const windowMs = seconds * 1000;
  const climbCount = CLIMBS_PER_SECOND * seconds;
  // The seeded incidents climb during the outage: its start is fixed before the seed, the
  // set-up's allowance and a warm-up of one poll interval and the quiet reads ahead.
  const seedStarted = Date.now();
  h.log(
    `${h.label}: outage, seeding ${OUTAGE_PEOPLE} people, ${ROTATIONS} rotations, ${climbCount} open incidents`,
  );
  const plannedOutageAt = seedStarted + SET_UP_ALLOWANCE_MS + POLL_MS + windowMs;
  const seeded = await h.seed((db, cipher) =>
    seedOutage(db, cipher, plannedOutageAt + 1_000, windowMs - 2_000, climbCount),
  );
  const { org, integrations } = seeded;
  const server = await h.startServer((base) => ({
    NODE_EXTRA_CA_CERTS: h.push.caFile,
    TWILIO_ACCOUNT_SID: h.twilio.accountSid,
    TWILIO_AUTH_TOKEN: h.twilio.authToken,
    TWILIO_FROM: '+15550000000',
    TWILIO_API_BASE: h.twilio.apiBase,
    SMTP_URL: h.smtp.url,
    MAIL_FROM: 'Baton <baton@example.com>',
    // Twilio signs the URL it posts to, Baton's public address: the calls' callbacks name it
    PUBLIC_URL: base,
  }));
  const { base } = server;
  h.log(`${h.label}: outage, signing in ${OUTAGE_PEOPLE} people, their rules and devices`);
  const cookies = await h.loginAll(base, org);
  const devices = await h.setUpPeople(
    base,
    await h.login(base, org.admin.email),
    org.users.map((u) => ({ id: u.id, cookie: cookies.get(u.id) as string })),
    OUTAGE_RULES,
  );
  const personOfDevice = new Map([...devices].map(([person, device]) => [device, person]));
  const personOfPhone = new Map(
    org.users.map((u, i) => [`+1555${String(1_000_000 + i).slice(-7)}`, u.id]),
  );

  // The keys the alerts repeat: opened and acknowledged by their holders (the first wave).
  h.log(
    `${h.label}: outage, opening ${integrations.length * OPEN_KEYS_PER_INTEGRATION} alert keys`,
  );
  const openKey = (n: number) =>
    `o${Math.floor(n / OPEN_KEYS_PER_INTEGRATION)}-open-${n % OPEN_KEYS_PER_INTEGRATION}`;
  const setUpRefusals: Record<string, number> = {};
  const refuse = (why: string) => {
    setUpRefusals[why] = (setUpRefusals[why] ?? 0) + 1;
  };
  // eight at a time: more waits on PostgreSQL's pool past 5 s, and is answered 503
  await inTurns(integrations, (integration, k) =>
    Promise.all(
      Array.from({ length: OPEN_KEYS_PER_INTEGRATION }, async (_, j) => {
        const res = await fetch(`${base}${ENQUEUE_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: lowBody(integration.key, openKey(k * OPEN_KEYS_PER_INTEGRATION + j)),
        });
        await res.arrayBuffer();
        if (res.status !== 202) refuse(`open key ${res.status}`);
      }),
    ),
  );
  await inTurns(org.rotations, async (r) => {
    const holderCookie = cookies.get(r.memberIds[r.holderIndex]) as string;
    const list = await fetch(`${base}/api/incidents?rotationId=${r.id}&status=triggered&limit=50`, {
      headers: { cookie: holderCookie },
    });
    const body = (await list.json()) as { incidents?: { id: number; title?: string }[] };
    for (const incident of body.incidents ?? []) {
      if (seeded.climbs.has(incident.id)) continue;
      const ack = await fetch(`${base}/api/incidents/${incident.id}/acknowledge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base, cookie: holderCookie },
        body: '{}',
      });
      await ack.arrayBuffer();
      if (ack.status !== 200) refuse(`acknowledge opened ${ack.status}`);
    }
  });
  if (Object.keys(setUpRefusals).length > 0)
    h.log(`${h.label}: outage set-up refusals: ${JSON.stringify(setUpRefusals)}`);

  const clock = new Clock();
  clock.outageAt = plannedOutageAt;
  clock.quietAt = plannedOutageAt - windowMs;
  clock.endAt = plannedOutageAt + windowMs;
  const warmUpMs = clock.quietAt - Date.now();
  if (warmUpMs < POLL_MS) {
    throw new Error(
      `outage: the set-up took ${((Date.now() - seedStarted) / 1000).toFixed(0)} s, past its allowance (${SET_UP_ALLOWANCE_MS / 1000} s): the seeded steps would fall due before the outage`,
    );
  }
  h.log(
    `${h.label}: outage, the people open the dashboard (warm-up ${(warmUpMs / 1000).toFixed(0)} s)`,
  );
  const people = new People(
    base,
    org.users.map((u) => ({ id: u.id, cookie: cookies.get(u.id) as string })),
    clock,
  );
  people.start();
  await sleep(clock.quietAt - Date.now());
  h.log(`${h.label}: outage, quiet reads for ${seconds} s`);
  const rss = { quiet: h.sampleRss(server.pid), outage: null as null | { stop: () => number } };
  await sleep(clock.outageAt - Date.now());
  const quietRss = rss.quiet.stop();
  rss.outage = h.sampleRss(server.pid);
  h.log(
    `${h.label}: outage, ${ALERT_RATE} alerts/s, ${PASS_RATE} passes/s, acknowledgements, for ${seconds} s`,
  );
  const writes: Sample[] = [];
  const responders = new Responders(
    base,
    h.push,
    h.twilio,
    personOfDevice,
    personOfPhone,
    clock,
    writes,
  );
  responders.start();
  const perfOffset = Date.now() - performance.now();
  const progress = setInterval(() => {
    const count = (kind: Sample['kind']) => writes.filter((w) => w.kind === kind).length;
    h.log(
      `${h.label}: outage ${clock.phase()}, ${people.samples.length} reads answered (${people.outstanding} of the outage's in flight), ${count('alert')} alerts, ${count('pass')} passes answered`,
    );
  }, 5_000);
  const [alerts] = await Promise.all([
    alertsAtRate(base, integrations, openKey, clock, writes),
    passesAtRate(base, org, cookies, clock, writes),
    sleep(clock.endAt - Date.now()),
  ]);
  // The outage's reads still in flight get their answers (30 s at most) before the people leave.
  while (people.outstanding > 0 && Date.now() < clock.endAt + DRAIN_MS) await sleep(100);
  clearInterval(progress);
  const outageRss = rss.outage.stop();
  people.stop();

  // Every new key's incident paged its holder on four channels: wait for push and email, which no
  // limit holds (30 s at most), and for the answers to the pages.
  const keyOf = (text: string) => /on (o\d+-new-\d+)/.exec(text)?.[1];
  const accepted = alerts.newKeys.filter((k) => k.acceptedAt !== null);
  const incidentOfKey = () => {
    const out = new Map<string, number>();
    for (const p of h.push.received) {
      const key = keyOf(p.text);
      const { id } = pushIncident(p.text);
      if (key && id !== null) out.set(key, id);
    }
    for (const s of h.twilio.sent) {
      const key = keyOf(s.body);
      const id = tokenIncident(s.idempotencyToken);
      if (key && id !== null) out.set(key, id);
    }
    return out;
  };
  const membersOf = new Map(org.rotations.map((r) => [r.id, r.memberIds]));
  const read = () => {
    const ids = incidentOfKey();
    const emailKeys = new Map<string, string>();
    for (const k of accepted) {
      const id = ids.get(k.key);
      if (id === undefined) continue;
      for (const person of membersOf.get(k.rotationId) ?? []) {
        const key = `page:${id}:sent:${person}:email`;
        emailKeys.set(messageIdOf(key), key);
      }
    }
    return { ids, got: arrivals(h.push, h.twilio, h.smtp, emailKeys) };
  };
  const deadline = Date.now() + 30_000;
  for (let r = read(); Date.now() < deadline; r = read()) {
    const all = accepted.every((k) => {
      const id = r.ids.get(k.key);
      return id !== undefined && r.got.push.has(id) && r.got.email.has(id);
    });
    if (all) break;
    await sleep(250);
  }
  await responders.stop();
  const { ids, got } = read();
  const paging = {} as Record<ReachChannel, { received: number; p95: number; p99: number }>;
  for (const channel of REACH_CHANNELS) {
    const ms = accepted
      .flatMap((k) => {
        const id = ids.get(k.key);
        const at = id === undefined ? undefined : got[channel].get(id);
        return at === undefined ? [] : [at + perfOffset - k.sentAt];
      })
      .sort((a, b) => a - b);
    paging[channel] = {
      received: ms.length,
      p95: Math.round(percentile(ms, 95)),
      p99: Math.round(percentile(ms, 99)),
    };
  }

  // The seeded incidents' second steps: due moment to the escalated push reaching the service.
  const escalated = new Map<number, number>();
  for (const p of h.push.received) {
    const { id } = pushIncident(p.text);
    if (id === null || !seeded.climbs.has(id) || !p.text.includes('"title":"Escalated page'))
      continue;
    const at = p.receivedAt + perfOffset;
    escalated.set(id, Math.min(escalated.get(id) ?? at, at));
  }
  const climbLate = [...escalated]
    .map(([id, at]) => at - (seeded.climbs.get(id) as number))
    .sort((a, b) => a - b);
  const acknowledgedFirst = [...seeded.climbs.keys()].filter((id) => !escalated.has(id)).length;

  // Why a text or call never reached Twilio: the outbox's rows, read with the server stopped.
  await h.stopServer();
  const heldAs: Record<string, Record<string, number>> = {};
  await h.seed(async (db) => {
    for (const channel of ['sms', 'voice'] as const) {
      const missing = accepted
        .map((k) => ids.get(k.key))
        .filter((id): id is number => id !== undefined && !got[channel].has(id));
      heldAs[channel] = await whyMissed(db, channel, missing);
    }
  });

  // The figures.
  const reads = (phase: Phase) => people.samples.filter((s) => s.phase === phase);
  const quiet = statsOf(reads('quiet'), seconds);
  const outage = statsOf(reads('outage'), seconds);
  const byCause = (cause: Sample['cause']) =>
    statsOf(
      reads('outage').filter((s) => s.cause === cause),
      seconds,
    );
  const polls = byCause('poll');
  const quietPolls = statsOf(
    reads('quiet').filter((s) => s.cause === 'poll'),
    seconds,
  );
  const changes = byCause('change');
  const outageWrites = writes.filter((s) => s.phase === 'outage');
  const ingest = statsOf(
    outageWrites.filter((s) => s.kind === 'alert'),
    seconds,
  );
  const passes = statsOf(
    outageWrites.filter((s) => s.kind === 'pass'),
    seconds,
  );
  const errors: Record<string, number> = {};
  for (const s of [...people.samples, ...writes]) {
    if (s.phase !== 'quiet' && s.phase !== 'outage') continue;
    if (s.status >= 200 && s.status < 300) continue;
    const at = `${s.phase}: ${s.kind === 'read' ? `GET ${s.route}` : s.route} ${s.status || 'no answer'}`;
    errors[at] = (errors[at] ?? 0) + 1;
  }
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const postgres = h.label === 'PostgreSQL';
  const at = `${h.label}`;
  const readRatio = outage.p99 / Math.max(1, quiet.p99);
  const rows: OutageRow[] = [
    {
      figure: `outage, ${OUTAGE_PEOPLE} people's dashboard reads, ${at}: quiet (no outage), ${seconds} s`,
      measured: `p99 ${quiet.p99} ms (p50 ${quiet.p50}), ${quiet.perSecond.toFixed(1)} GETs/s, ${quiet.non2xx} not 2xx`,
      target: '(the baseline)',
      met: null,
    },
    {
      figure: `outage, the same reads under the outage, ${at}: p99 and throughput vs quiet`,
      measured: `p99 ${outage.p99} ms (p50 ${outage.p50}) = ${readRatio.toFixed(1)}× quiet; ${outage.perSecond.toFixed(1)} GETs/s = ${(outage.perSecond / Math.max(0.1, quiet.perSecond)).toFixed(1)}× (polls ${polls.perSecond.toFixed(1)}/s p99 ${polls.p99} ms, re-reads on ${people.eventsReceived.toLocaleString('en-US')} changes heard ${changes.perSecond.toFixed(1)}/s p99 ${changes.p99} ms, ${people.carried.toLocaleString('en-US')} carried to the next round, ${people.unanswered} unanswered 30 s after the end); ${outage.non2xx} not 2xx`,
      target: 'p99 ≤ 2× quiet; polls keep the quiet rate; all 2xx',
      met:
        readRatio <= 2 &&
        polls.perSecond >= 0.95 * quietPolls.perSecond &&
        outage.non2xx === 0 &&
        people.unanswered === 0,
    },
    {
      figure: `outage, alerts ${ALERT_RATE}/s (PagerDuty Events v2, ${Math.round(NEW_KEY_SHARE * 100)}% new keys), ${at}: accepted and p99`,
      measured: `${ingest.perSecond.toFixed(0)} accepted/s of ${(outageWrites.filter((w) => w.kind === 'alert').length / seconds).toFixed(0)} sent/s (this process up to ${(alerts.lagMs / 1000).toFixed(1)} s behind its schedule), p99 ${ingest.p99} ms (p50 ${ingest.p50}), ${ingest.non2xx} not 202`,
      target: postgres
        ? `≥ ${ALERT_RATE}/s, p99 ≤ 50 ms`
        : `≥ ${ALERT_RATE}/s (p99 target for PostgreSQL)`,
      met:
        ingest.perSecond >= ALERT_RATE * 0.98 &&
        ingest.non2xx === 0 &&
        (!postgres || ingest.p99 <= 50),
    },
  ];
  const names = { push: 'push', sms: 'SMS', voice: 'call', email: 'email' } as const;
  rows.push({
    figure: `outage, page to provider: ${accepted.length} incidents raised by new keys → push / SMS / call / email, ${at}: p95 / p99 from the alert sent`,
    measured: REACH_CHANNELS.map(
      (c) =>
        `${names[c]} ${paging[c].p95} / ${paging[c].p99} ms (${paging[c].received} received${c === 'sms' || c === 'voice' ? `; the rest in the outbox as ${JSON.stringify(heldAs[c])}` : `, ${accepted.length - paging[c].received} missed`})`,
    ).join('; '),
    target:
      'p95 ≤ 1 s, p99 ≤ 2 s; push and email none missed (texts and calls: 3 a person a quarter hour)',
    met:
      paging.push.received === accepted.length &&
      paging.email.received === accepted.length &&
      REACH_CHANNELS.every((c) => paging[c].p95 <= 1000 && paging[c].p99 <= 2000),
  });
  rows.push({
    figure: `outage, ${seeded.climbs.size} open incidents' second steps due during it, ${at}: due → escalated push at the push service`,
    measured: `p50 ${Math.round(percentile(climbLate, 50))} / p99 ${Math.round(percentile(climbLate, 99))} ms (${escalated.size} climbed, ${acknowledgedFirst} not seen)`,
    target: 'p99 ≤ 2 s (the timers figure), none missing',
    met: acknowledgedFirst === 0 && percentile(climbLate, 99) <= 2000,
  });
  const acks = writes.filter(
    (s) => s.kind.startsWith('ack-') && (s.phase === 'outage' || s.phase === 'after'),
  );
  const acked =
    responders.acknowledged.push + responders.acknowledged.sms + responders.acknowledged.call;
  const ackStats = statsOf(acks, seconds);
  rows.push({
    figure: `outage, acknowledgements from the push action, an SMS reply and a call, ${at}`,
    measured: `${responders.acknowledged.push} / ${responders.acknowledged.sms} / ${responders.acknowledged.call} acknowledged, p99 ${ackStats.p99} ms a request; not acknowledged: ${JSON.stringify(responders.notAcknowledged)}`,
    target: 'every answer acknowledges',
    met: acked > 0 && Object.keys(responders.notAcknowledged).length === 0 && ackStats.non2xx === 0,
  });
  rows.push({
    figure: `outage, passing the baton ${PASS_RATE}/s, ${at}`,
    measured: `${passes.count} passed, p99 ${passes.p99} ms (p50 ${passes.p50}), ${passes.non2xx} refused`,
    target: 'p99 ≤ 1 s, none refused',
    met: passes.p99 <= 1000 && passes.non2xx === 0,
  });
  rows.push({
    figure: `outage, answers not 2xx (reads and writes, quiet and outage), ${at}`,
    measured:
      errorCount === 0
        ? 'none'
        : `${errorCount}: ${Object.entries(errors)
            .map(([k, n]) => `${n} × ${k}`)
            .join(
              ', ',
            )}${people.streamFailures > 0 ? `; ${people.streamFailures} streams failed` : ''}`,
    target: 'none',
    met: errorCount === 0 && people.streamFailures === 0,
  });
  rows.push({
    figure: `outage, server memory, ${at}: peak RSS quiet / outage`,
    measured: `${quietRss.toFixed(0)} / ${outageRss.toFixed(0)} MB`,
    target: '≤ 250 MB',
    met: outageRss <= 250,
  });
  return rows;
}
