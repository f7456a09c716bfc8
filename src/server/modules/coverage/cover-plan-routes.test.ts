import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Calendar } from '../../../shared/contracts/calendar';
import type { CoverCandidates } from '../../../shared/contracts/cover-plans';
import type { CoverageRequestList, CoverageRequestView } from '../../../shared/contracts/coverage';
import type { User } from '../../../shared/contracts/users';
import {
  coverageRequests,
  handoffs,
  notifications,
  rotations,
  scheduleEntries,
  timeOff,
} from '../../db/schema';
import { runEngineTick } from '../../engine-tasks';
import { insertRotation } from '../../seed/factories';

/**
 * Planned cover (decision 218): a weekly rotation handing over on Mondays at 09:00 UTC, with Ana
 * on call this week (from Mon Nov 2), Ben next week (Nov 9 – Nov 16), Cal the week after.
 */

let t: TestApp;
let ana: User;
let ben: User;
let cal: User;
let dan: User;
let mia: User;
let max: User;
let ola: User;
let ivy: User;
let adam: User;

beforeAll(async () => {
  t = await createTestApp();
  ana = await t.createUser({ name: 'Ana Alvarez', roles: ['on-call'] });
  ben = await t.createUser({ name: 'Ben Brooks', roles: ['on-call'] });
  cal = await t.createUser({ name: 'Cal Chen', roles: ['on-call'] });
  dan = await t.createUser({ name: 'Dan Diaz', roles: ['on-call'] });
  mia = await t.createUser({ name: 'Mia Manager', roles: ['manager'] });
  max = await t.createUser({ name: 'Max Elsewhere', roles: ['manager'] });
  ola = await t.createUser({ name: 'Ola Outsider', roles: ['on-call'] });
  ivy = await t.createUser({ name: 'Ivy Incident', roles: ['incident_manager'] });
  adam = await t.createUser({ name: 'Adam Admin', roles: ['admin'] });
});
afterAll(() => t.close());

const tick = () =>
  runEngineTick(
    { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
    t.clock.now(),
  );

/** A weekly rotation (Mondays 09:00 UTC) with Ana holding since Mon Nov 2; Mia manages it. */
async function weekly(name: string) {
  t.clock.set('2026-11-04T12:00:00Z');
  return insertRotation(t.database.db, {
    name,
    cadence: 'weekly',
    handoffTime: '09:00',
    handoffWeekday: 1,
    memberIds: [ana.id, ben.id, cal.id, dan.id, mia.id],
    holderId: ana.id,
    holderSince: new Date('2026-11-02T09:00:00Z'),
    createdById: mia.id,
    now: t.clock.now(),
  });
}

const plan = (
  user: User,
  rotationId: number,
  body: { coveringUserId: number; startTime: string; endTime: string } & Record<string, unknown>,
) =>
  t.call(user, 'POST', `/api/rotations/${rotationId}/cover-plans`, { notes: 'Holiday', ...body });

const holderOf = async (id: number) =>
  (await t.database.db.select().from(rotations).where(eq(rotations.id, id)))[0];
const history = async (id: number) =>
  (
    await t.database.db
      .select()
      .from(handoffs)
      .where(eq(handoffs.rotationId, id))
      .orderBy(asc(handoffs.occurredAt), asc(handoffs.id))
  ).map((h) => [h.kind, h.fromUserId, h.toUserId, h.occurredAt.toISOString()]);
const kindsSentTo = async (user: User) =>
  (await t.database.db.select().from(notifications).where(eq(notifications.userId, user.id))).map(
    (n) => n.kind,
  );
const requestsOf = (rotationId: number) =>
  t.database.db.select().from(coverageRequests).where(eq(coverageRequests.rotationId, rotationId));
const counts = async () => ({
  requests: (await t.database.db.select().from(coverageRequests)).length,
  notifications: (await t.database.db.select().from(notifications)).length,
  handoffs: (await t.database.db.select().from(handoffs)).length,
});

describe('a member plans cover for next week’s shift', () => {
  test('the colleague accepts; at its start the baton goes to them, at its end on to the next member', async () => {
    const r = await weekly('Planned Weekly');
    const asked = await plan(ben, r.id, {
      coveringUserId: dan.id,
      startTime: '2026-11-09T09:00:00Z',
      endTime: '2026-11-16T09:00:00Z',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const request = asked.json() as CoverageRequestView;
    expect(request).toMatchObject({
      status: 'pending',
      requester: { name: 'Ben Brooks' },
      coveringUser: { name: 'Dan Diaz' },
      arrangedBy: null,
      notes: 'Holiday',
    });
    expect(await kindsSentTo(dan)).toContain('coverage.requested');

    const incoming: CoverageRequestList = (
      await t.call(dan, 'GET', '/api/coverage-requests')
    ).json();
    expect(incoming.incoming.map((c) => c.id)).toContain(request.id);
    const accepted = await t.call(dan, 'POST', `/api/coverage-requests/${request.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await kindsSentTo(ben)).toContain('coverage.accepted');

    // The calendar lays the accepted window over Ben's week, as a coverage shift.
    const calendar: Calendar = (
      await t.call(ana, 'GET', '/api/calendar?from=2026-11-08T00:00:00Z&to=2026-11-24T00:00:00Z')
    ).json();
    const shifts = calendar.rotations.find((x) => x.id === r.id)?.shifts ?? [];
    expect(shifts.map((s) => [s.userId, s.start, s.end, s.source])).toEqual([
      [ana.id, '2026-11-08T00:00:00.000Z', '2026-11-09T09:00:00.000Z', 'rotation'],
      [dan.id, '2026-11-09T09:00:00.000Z', '2026-11-16T09:00:00.000Z', 'coverage'],
      [cal.id, '2026-11-16T09:00:00.000Z', '2026-11-23T09:00:00.000Z', 'rotation'],
      [dan.id, '2026-11-23T09:00:00.000Z', '2026-11-30T09:00:00.000Z', 'rotation'],
    ]);

    expect(shifts.find((s) => s.source === 'coverage')?.coveredUserId).toBe(ben.id);

    // At the boundary Ana is still asked to pass; the window takes the baton from her for Ben.
    for (const at of ['2026-11-09T08:30:00Z', '2026-11-09T09:00:00Z']) {
      t.clock.set(at);
      await tick();
    }
    expect((await holderOf(r.id)).holderUserId).toBe(dan.id);
    expect((await holderOf(r.id)).nextHandoffAt).toEqual(new Date('2026-11-16T09:00:00Z'));
    const [running] = await requestsOf(r.id);
    expect(running.status).toBe('active');
    expect(await kindsSentTo(dan)).toContain('coverage.started');

    // The automatic transfer time of that boundary passes without a change.
    for (const at of ['2026-11-09T10:00:00Z', '2026-11-12T09:00:00Z', '2026-11-16T08:45:00Z']) {
      t.clock.set(at);
      await tick();
    }
    expect((await holderOf(r.id)).holderUserId).toBe(dan.id);

    t.clock.set('2026-11-16T09:00:00Z');
    await tick();
    const after = await holderOf(r.id);
    expect(after.holderUserId).toBe(cal.id);
    expect(after.nextHandoffAt).toEqual(new Date('2026-11-23T09:00:00Z'));
    expect(await history(r.id)).toEqual([
      ['coverage', ana.id, dan.id, '2026-11-09T09:00:00.000Z'],
      ['coverage_end', dan.id, cal.id, '2026-11-16T09:00:00.000Z'],
    ]);
    expect((await requestsOf(r.id))[0].status).toBe('completed');
  });

  test('part of a shift: the baton goes to the colleague and back to the requester', async () => {
    const r = await weekly('Partly Covered');
    const asked = await plan(ben, r.id, {
      coveringUserId: cal.id,
      startTime: '2026-11-11T09:00:00Z',
      endTime: '2026-11-13T17:00:00Z',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const { id } = asked.json() as CoverageRequestView;
    expect((await t.call(cal, 'POST', `/api/coverage-requests/${id}/accept`)).statusCode).toBe(200);
    for (const at of [
      '2026-11-09T09:00:00Z',
      '2026-11-09T10:00:00Z',
      '2026-11-11T09:00:00Z',
      '2026-11-12T09:00:00Z',
    ]) {
      t.clock.set(at);
      await tick();
    }
    expect((await holderOf(r.id)).holderUserId).toBe(cal.id);
    t.clock.set('2026-11-13T17:00:00Z');
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(ben.id);
    expect(await history(r.id)).toEqual([
      ['auto', ana.id, ben.id, '2026-11-09T10:00:00.000Z'],
      ['coverage', ben.id, cal.id, '2026-11-11T09:00:00.000Z'],
      ['coverage_end', cal.id, ben.id, '2026-11-13T17:00:00.000Z'],
    ]);
  });

  test('a scheduled rotation: the window on the first day of the requester’s entry starts from the previous one', async () => {
    t.clock.set('2026-11-04T12:00:00Z');
    const r = await insertRotation(t.database.db, {
      name: 'Planned Schedule',
      type: 'scheduled',
      memberIds: [ana.id, ben.id, dan.id],
      now: t.clock.now(),
    });
    await t.database.db.insert(scheduleEntries).values([
      {
        rotationId: r.id,
        userId: ana.id,
        startAt: new Date('2026-11-04T12:00:00Z'),
        endAt: new Date('2026-11-09T09:00:00Z'),
      },
      {
        rotationId: r.id,
        userId: ben.id,
        startAt: new Date('2026-11-09T09:00:00Z'),
        endAt: new Date('2026-11-16T09:00:00Z'),
      },
    ]);
    await t.database.db
      .update(rotations)
      .set({ nextHandoffAt: t.clock.now() })
      .where(eq(rotations.id, r.id));
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(ana.id);
    const asked = await plan(ben, r.id, {
      coveringUserId: dan.id,
      startTime: '2026-11-09T09:00:00Z',
      endTime: '2026-11-10T09:00:00Z',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const { id } = asked.json() as CoverageRequestView;
    expect((await t.call(dan, 'POST', `/api/coverage-requests/${id}/accept`)).statusCode).toBe(200);
    t.clock.set('2026-11-09T09:00:00Z');
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(dan.id);
    t.clock.set('2026-11-10T09:00:00Z');
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(ben.id);
    expect((await history(r.id)).map((h) => [h[0], h[2], h[3]])).toEqual([
      ['schedule', ana.id, '2026-11-04T12:00:00.000Z'],
      ['coverage', dan.id, '2026-11-09T09:00:00.000Z'],
      ['coverage_end', ben.id, '2026-11-10T09:00:00.000Z'],
    ]);
  });

  test('the requester cancels before the window starts: nothing happens at its start', async () => {
    const r = await weekly('Cancelled Plan');
    const asked = await plan(ben, r.id, {
      coveringUserId: dan.id,
      startTime: '2026-11-10T09:00:00Z',
      endTime: '2026-11-11T09:00:00Z',
    });
    const { id } = asked.json() as CoverageRequestView;
    await t.call(dan, 'POST', `/api/coverage-requests/${id}/accept`);
    const cancelled = await t.call(ben, 'POST', `/api/coverage-requests/${id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    for (const at of ['2026-11-09T10:00:00Z', '2026-11-10T09:00:00Z']) {
      t.clock.set(at);
      await tick();
    }
    expect((await holderOf(r.id)).holderUserId).toBe(ben.id);
  });
});

describe('refusals: each a 4xx with a message, and nothing written', () => {
  /** A window inside Ben's week (Nov 9 – Nov 16), which most refusals ask for. */
  const TUESDAY = { startTime: '2026-11-10T09:00:00Z', endTime: '2026-11-10T17:00:00Z' };

  test.each([
    {
      what: 'a window in the past',
      who: () => ben,
      body: () => ({
        coveringUserId: dan.id,
        startTime: '2026-11-03T09:00:00Z',
        endTime: '2026-11-03T17:00:00Z',
      }),
      status: 400,
      message: 'Start time cannot be in the past',
    },
    {
      what: 'a window the requester does not hold (this week is Ana’s)',
      who: () => ben,
      body: () => ({
        coveringUserId: dan.id,
        startTime: '2026-11-05T09:00:00Z',
        endTime: '2026-11-05T17:00:00Z',
      }),
      status: 409,
      message:
        'You are not on call for all of this window. Choose a window within your own upcoming shifts.',
    },
    {
      what: 'a window running past the end of the requester’s shift',
      who: () => ben,
      body: () => ({
        coveringUserId: dan.id,
        startTime: '2026-11-15T09:00:00Z',
        endTime: '2026-11-17T09:00:00Z',
      }),
      status: 409,
      message:
        'You are not on call for all of this window. Choose a window within your own upcoming shifts.',
    },
    {
      what: 'covering yourself',
      who: () => ben,
      body: () => ({ coveringUserId: ben.id, ...TUESDAY }),
      status: 400,
      message: 'Choose a team member other than yourself to cover you.',
    },
    {
      what: 'a covering user who is not a member',
      who: () => ben,
      body: () => ({ coveringUserId: ola.id, ...TUESDAY }),
      status: 409,
      message: 'The person you chose is not a member of this rotation.',
    },
    {
      what: 'a requester who is not a member',
      who: () => ola,
      body: () => ({ coveringUserId: dan.id, ...TUESDAY }),
      status: 409,
      message: 'You must be a member of this rotation to ask for cover.',
    },
    {
      what: 'an on-call member arranging cover for someone else',
      who: () => cal,
      body: () => ({ requesterId: ben.id, coveringUserId: dan.id, ...TUESDAY }),
      status: 403,
      message:
        'Only managers of this rotation and administrators can arrange cover for someone else.',
    },
    {
      what: 'a manager who does not manage the rotation arranging cover',
      who: () => max,
      body: () => ({ requesterId: ben.id, coveringUserId: dan.id, ...TUESDAY }),
      status: 403,
      message:
        'Only managers of this rotation and administrators can arrange cover for someone else.',
    },
    {
      what: 'arranging cover of a person with the person themself',
      who: () => mia,
      body: () => ({ requesterId: ben.id, coveringUserId: ben.id, ...TUESDAY }),
      status: 400,
      message: 'Choose someone other than the person being covered.',
    },
    {
      what: 'an incident manager',
      who: () => ivy,
      body: () => ({ coveringUserId: dan.id, ...TUESDAY }),
      status: 403,
      message: undefined,
    },
    {
      what: 'an end before the start',
      who: () => ben,
      body: () => ({
        coveringUserId: dan.id,
        startTime: '2026-11-10T17:00:00Z',
        endTime: '2026-11-10T09:00:00Z',
      }),
      status: 400,
      message: 'endTime: End time must be after start time',
    },
  ])('$what', async ({ who, body, status, message }) => {
    const r = await weekly('Refusing Rotation');
    const before = await counts();
    const res = await plan(who(), r.id, body());
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json().message).toBe(message);
    else expect(res.json().message).toEqual(expect.any(String));
    expect(await counts()).toEqual(before);
  });

  test('a window overlapping accepted cover is refused, naming it; so is accepting an overlapping one', async () => {
    const r = await weekly('Overlap Rotation');
    const first = await plan(ben, r.id, {
      coveringUserId: dan.id,
      startTime: '2026-11-10T09:00:00Z',
      endTime: '2026-11-11T09:00:00Z',
    });
    const pendingTwin = await plan(ben, r.id, {
      coveringUserId: cal.id,
      startTime: '2026-11-10T18:00:00Z',
      endTime: '2026-11-10T20:00:00Z',
    });
    expect(pendingTwin.statusCode, pendingTwin.body).toBe(201);
    const firstId = (first.json() as CoverageRequestView).id;
    await t.call(dan, 'POST', `/api/coverage-requests/${firstId}/accept`);

    const before = await counts();
    const refused = await plan(ben, r.id, {
      coveringUserId: cal.id,
      startTime: '2026-11-10T20:00:00Z',
      endTime: '2026-11-12T09:00:00Z',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This window overlaps other cover in this rotation: Dan Diaz covers Ben Brooks from Tue, Nov 10, 2026, 9:00 AM UTC until Wed, Nov 11, 2026, 9:00 AM UTC.',
    );
    const twinAccept = await t.call(
      cal,
      'POST',
      `/api/coverage-requests/${(pendingTwin.json() as CoverageRequestView).id}/accept`,
    );
    expect(twinAccept.statusCode).toBe(409);
    expect(twinAccept.json().message).toMatch(
      /^This window overlaps other cover in this rotation: Dan Diaz covers Ben Brooks/,
    );
    expect(await counts()).toEqual(before);

    // Touching ends do not overlap.
    const touching = await plan(ben, r.id, {
      coveringUserId: cal.id,
      startTime: '2026-11-11T09:00:00Z',
      endTime: '2026-11-11T12:00:00Z',
    });
    expect(touching.statusCode, touching.body).toBe(201);
  });

  test('an unknown rotation is 404', async () => {
    const res = await plan(ben, 999_999, {
      coveringUserId: dan.id,
      startTime: '2026-11-10T09:00:00Z',
      endTime: '2026-11-10T17:00:00Z',
    });
    expect(res.statusCode).toBe(404);
  });

  test('the current holder’s coverage request keeps its own rule and words', async () => {
    const r = await weekly('Spec Rotation');
    const res = await t.call(ben, 'POST', `/api/rotations/${r.id}/cover`, {
      coveringUserId: dan.id,
      startTime: '2026-11-10T09:00:00Z',
      endTime: '2026-11-10T17:00:00Z',
      notes: null,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('You must be on-call to request coverage');
  });
});

describe('arranged cover', () => {
  test('a manager of the rotation arranges cover: accepted at once, both told, the trail names them', async () => {
    const r = await weekly('Arranged Rotation');
    const res = await plan(mia, r.id, {
      requesterId: ben.id,
      coveringUserId: cal.id,
      startTime: '2026-11-12T09:00:00Z',
      endTime: '2026-11-14T09:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    const view = res.json() as CoverageRequestView;
    expect(view).toMatchObject({
      status: 'accepted',
      respondedAt: '2026-11-04T12:00:00.000Z',
      requester: { name: 'Ben Brooks' },
      coveringUser: { name: 'Cal Chen' },
      arrangedBy: { name: 'Mia Manager' },
    });
    const [row] = (await requestsOf(r.id)).filter((x) => x.id === view.id);
    expect(row.arrangedById).toBe(mia.id);
    expect(await kindsSentTo(ben)).toContain('coverage.arranged');
    expect(await kindsSentTo(cal)).toContain('coverage.arranged');
    const bens: CoverageRequestList = (await t.call(ben, 'GET', '/api/coverage-requests')).json();
    expect(bens.outgoing.find((c) => c.id === view.id)?.arrangedBy?.name).toBe('Mia Manager');

    // The arranger may call it off; another manager may not.
    expect((await t.call(max, 'POST', `/api/coverage-requests/${view.id}/cancel`)).statusCode).toBe(
      403,
    );
    const off = await t.call(mia, 'POST', `/api/coverage-requests/${view.id}/cancel`);
    expect(off.json()).toMatchObject({ status: 'cancelled' });
  });

  test('an administrator arranges cover for today’s ill holder: the baton moves at once', async () => {
    const r = await weekly('Ill Holder Rotation');
    const res = await plan(adam, r.id, {
      requesterId: ana.id,
      coveringUserId: dan.id,
      startTime: '2026-11-04T12:00:00Z',
      endTime: '2026-11-06T09:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'active', arrangedBy: { name: 'Adam Admin' } });
    expect((await holderOf(r.id)).holderUserId).toBe(dan.id);
    t.clock.set('2026-11-06T09:00:00Z');
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(ana.id);
  });
});

describe('who should cover', () => {
  test('eligible members with their on-call hours over 90 days, and anyone on time off marked', async () => {
    t.clock.set('2026-11-04T12:00:00Z');
    const eve = await t.createUser({ name: 'Eve Early', roles: ['on-call'] });
    const fay = await t.createUser({ name: 'Fay Fresh', roles: ['on-call'] });
    const gus = await t.createUser({ name: 'Gus Gone', roles: ['on-call'] });
    const r = await insertRotation(t.database.db, {
      name: 'Candidates Rotation',
      memberIds: [eve.id, fay.id, gus.id, ivy.id],
      holderId: fay.id,
      now: t.clock.now(),
    });
    // Eve held from long before the 90 days until 10 days ago; Fay since then.
    await t.database.db.insert(handoffs).values([
      {
        rotationId: r.id,
        toUserId: eve.id,
        kind: 'take',
        occurredAt: new Date('2026-06-01T12:00:00Z'),
      },
      {
        rotationId: r.id,
        fromUserId: eve.id,
        toUserId: fay.id,
        kind: 'pass',
        occurredAt: new Date('2026-10-25T12:00:00Z'),
      },
    ]);
    await t.database.db.insert(timeOff).values({
      userId: gus.id,
      startAt: new Date('2026-11-09T00:00:00Z'),
      endAt: new Date('2026-11-12T00:00:00Z'),
      createdById: gus.id,
    });
    const res = await t.call(
      fay,
      'GET',
      `/api/rotations/${r.id}/cover-candidates?startTime=2026-11-10T09:00:00Z&endTime=2026-11-11T09:00:00Z`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as CoverCandidates;
    expect(body.since).toBe('2026-08-06T12:00:00.000Z');
    expect(body.candidates.map((c) => [c.user.name, c.onCallHours, c.onTimeOff])).toEqual([
      ['Eve Early', 80 * 24, false],
      ['Gus Gone', 0, true],
    ]);
    expect(body.candidates[1].timeOff).toEqual([
      { startTime: '2026-11-09T00:00:00.000Z', endTime: '2026-11-12T00:00:00.000Z' },
    ]);

    const bad = await t.call(
      fay,
      'GET',
      `/api/rotations/${r.id}/cover-candidates?startTime=2026-11-11T09:00:00Z&endTime=2026-11-10T09:00:00Z`,
    );
    expect(bad.statusCode).toBe(400);
    expect(
      (await t.call(ivy, 'GET', `/api/rotations/${r.id}/cover-candidates?startTime=x&endTime=y`))
        .statusCode,
    ).toBe(403);
  });
});
