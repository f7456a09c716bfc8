// The calendar's projection of layered rotations (issue 36): 200 rotations, each made of
// follow-the-sun pairs of 12-hour layers on weekdays (one team's day, the other's night, each with
// its on-duty window) and a weekend layer of daily shifts, created through POST /api/rotations as
// an admin makes them; then the calendar read the way the browser gets it from the built server,
// GET /api/calendar, over the next 90 days. One read covers at most CALENDAR_MAX_DAYS (a month
// grid with room to spare), so 90 days are two reads of 45 days, one after the other, and the
// figure is the two together.
import type { InjectOptions } from 'fastify';
import { createCipher } from '../../src/server/bootstrap';
import type { Database } from '../../src/server/db/client';
import { insertUsers } from '../../src/server/modules/users/user-repository';
import { CALENDAR_MAX_DAYS } from '../../src/shared/contracts/calendar';
import type { CreateRotationInput } from '../../src/shared/contracts/rotations';
import type { Role } from '../../src/shared/domain/roles';
import { benchConfig, inProcessApp, signIn } from './in-process';

export const LAYERED_ROTATIONS = 200;
export const PROJECTION_DAYS = 90;
/** Issue 36: the calendar's 90 days of them within this, on PGlite. */
export const PROJECTION_TARGET_MS = 1000;
const PEOPLE = 600;
const ADMIN_EMAIL = 'layers.admin@example.com';
const DAY = 86_400_000;
const ZONES = ['Europe/London', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney', 'UTC'];
const WEEKDAYS = [1, 2, 3, 4, 5];

/**
 * layeredRotation is rotation `i`: six people, two teams of three handing over at 07:00 and 19:00
 * local time on weekdays (12-hour shifts, each team on duty for its half of the day), all six
 * taking a day each at weekends.
 */
export function layeredRotation(i: number, people: readonly number[]): CreateRotationInput {
  const six = Array.from({ length: 6 }, (_, k) => people[(i * 6 + k) % people.length] as number);
  return {
    name: `Follow the sun ${i + 1}`,
    type: 'fixed',
    timeZone: ZONES[i % ZONES.length],
    layers: [
      {
        name: 'Day team',
        memberIds: six.slice(0, 3),
        cadence: 'hourly',
        cadenceEvery: 12,
        handoffTime: '07:00',
        activeWindows: [{ days: WEEKDAYS, start: '07:00', end: '19:00' }],
      },
      {
        name: 'Night team',
        memberIds: six.slice(3),
        cadence: 'hourly',
        cadenceEvery: 12,
        handoffTime: '19:00',
        activeWindows: [{ days: WEEKDAYS, start: '19:00', end: '07:00' }],
      },
      {
        name: 'Weekend',
        memberIds: six,
        cadence: 'daily',
        cadenceEvery: 1,
        handoffTime: '09:00',
        activeWindows: [{ days: [0, 6], start: '00:00', end: '00:00' }],
      },
    ],
  };
}

/**
 * seedLayeredRotations writes PEOPLE on-call users and an admin, then has the admin create
 * LAYERED_ROTATIONS layered rotations through the app (validation, members, the first holder).
 * Answers the admin's email.
 */
export async function seedLayeredRotations(
  database: Database,
  env: Record<string, string>,
): Promise<string> {
  const config = benchConfig(env);
  const cipher = createCipher(config);
  await insertUsers(database.db, cipher, [
    { name: 'Layers Admin', email: ADMIN_EMAIL, roles: ['admin'] as Role[] },
  ]);
  const people = await insertUsers(
    database.db,
    cipher,
    Array.from({ length: PEOPLE }, (_, i) => ({
      name: `Layer Person ${i}`,
      email: `layer.person.${i}@example.com`,
      roles: ['on-call'] as Role[],
    })),
  );
  const app = await inProcessApp(database, { config, cipher });
  try {
    const headers = await signIn(app, ADMIN_EMAIL, env.LOCAL_LOGIN_PASSWORD);
    const ids = people.map((p) => p.id);
    for (let i = 0; i < LAYERED_ROTATIONS; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/rotations',
        headers,
        payload: layeredRotation(i, ids) as InjectOptions['payload'],
      });
      if (res.statusCode !== 201) throw new Error(`rotation ${i}: ${res.statusCode} ${res.body}`);
    }
  } finally {
    await app.close();
  }
  return ADMIN_EMAIL;
}

/** The reads that make up PROJECTION_DAYS from `start`, each within CALENDAR_MAX_DAYS. */
export function projectionReads(start: Date): { from: string; to: string }[] {
  const reads = Math.ceil(PROJECTION_DAYS / CALENDAR_MAX_DAYS);
  const each = PROJECTION_DAYS / reads;
  return Array.from({ length: reads }, (_, i) => ({
    from: new Date(start.getTime() + i * each * DAY).toISOString(),
    to: new Date(start.getTime() + (i + 1) * each * DAY).toISOString(),
  }));
}

export interface ProjectionRun {
  ms: number;
  rotations: number;
  shifts: number;
  bytes: number;
}

/**
 * timeProjection reads the calendar's PROJECTION_DAYS from now over HTTP as the browser does,
 * `runs` times, and answers each run's milliseconds (its reads one after the other, each body
 * read in full) with what came back.
 */
export async function timeProjection(
  base: string,
  cookie: string,
  runs: number,
): Promise<ProjectionRun[]> {
  const out: ProjectionRun[] = [];
  for (let run = 0; run < runs; run++) {
    const reads = projectionReads(new Date());
    const started = performance.now();
    const bodies: string[] = [];
    for (const { from, to } of reads) {
      const res = await fetch(
        `${base}/api/calendar?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
        { headers: { cookie } },
      );
      const body = await res.text();
      if (res.status !== 200) throw new Error(`calendar: ${res.status} ${body.slice(0, 500)}`);
      bodies.push(body);
    }
    const ms = performance.now() - started;
    const calendars = bodies.map(
      (b) => JSON.parse(b) as { rotations: { id: number; shifts: unknown[] }[] },
    );
    out.push({
      ms,
      rotations: new Set(calendars.flatMap((c) => c.rotations.map((r) => r.id))).size,
      shifts: calendars.reduce(
        (n, c) => n + c.rotations.reduce((m, r) => m + r.shifts.length, 0),
        0,
      ),
      bytes: bodies.reduce((n, b) => n + b.length, 0),
    });
  }
  return out;
}
