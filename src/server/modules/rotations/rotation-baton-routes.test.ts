import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { CoverageRequestSchema } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { coverageRequests, handoffs, scheduleEntries, timeOff, users } from '../../db/schema';
import {
  HOUR,
  handoffsOf,
  ids,
  people,
  rotation,
  setUpRotationApp,
  t,
} from './rotation-routes.fixtures';

setUpRotationApp();

describe('the baton', () => {
  test('a member takes on-call when no one holds it: holder, holder since, a take handoff', async () => {
    const r = await rotation({ memberIds: ids(people.olivia, people.noah) });
    const res = await t.call(people.noah, 'POST', `/api/rotations/${r.id}/take-oncall`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      currentOnCallUserId: people.noah.id,
      currentOnCall: { name: 'Noah Nakamura' },
      holderSince: t.clock.now().toISOString(),
      nextOnCall: { id: people.olivia.id },
    });
    const [h] = await handoffsOf(r.id);
    expect(h).toMatchObject({
      fromUserId: null,
      toUserId: people.noah.id,
      kind: 'take',
      status: 'success',
      notes: null,
      occurredAt: t.clock.now(),
    });
  });

  test('a pass answers the rotation as a read after it shows it: the turn facts read under the lock, the pass as the latest boundary (decision 290)', async () => {
    // Weekly, Mondays 09:00 UTC; the clock is Monday 2 November 12:00, so the pending boundary is
    // 9 November 09:00.
    const pass = async (rotationId: number, from: User, to: User) => {
      const res = await t.call(from, 'POST', `/api/rotations/${rotationId}/handoff`, {
        toUserId: to.id,
      });
      expect(res.statusCode, res.body).toBe(200);
      const read = await t.call(from, 'GET', `/api/rotations/${rotationId}`);
      expect(res.json()).toEqual(read.json());
      return (res.json() as { nextOnCall: { id: number } | null }).nextOnCall?.id;
    };
    const away = (who: User, start: string, end: string) =>
      t.database.db.insert(timeOff).values({
        userId: who.id,
        startAt: new Date(start),
        endAt: new Date(end),
        createdById: who.id,
      });
    // People of this test's own: time off stays in the suite's database.
    const [ada, ben, cy, dee, eli, fay] = await Promise.all(
      ['Ada', 'Ben', 'Cy', 'Dee', 'Eli', 'Fay'].map((name) =>
        t.createUser({ name: `${name} Turnfacts`, roles: ['on-call'] }),
      ),
    );
    // Mid-shift, Ada to Ben: Ben's turn now, and after him Cy, who is away the whole of the next
    // shift, so Ada.
    const midShift = await rotation({ memberIds: ids(ada, ben, cy), holderId: ada.id });
    await away(cy, '2026-11-08T00:00:00Z', '2026-11-17T00:00:00Z');
    expect(await pass(midShift.id, ada, ben)).toBe(ada.id);

    // Ten minutes before the boundary, Dee to Eli: the pass handles the boundary, so the next on
    // call is for the shift after (16 to 23 November), Fay's, although she is away on the 9th's.
    // Only the pass recorded as the latest boundary handoff tells that (else: Dee).
    const nearBoundary = await rotation({ memberIds: ids(dee, eli, fay), holderId: dee.id });
    await away(fay, '2026-11-09T00:00:00Z', '2026-11-16T08:00:00Z');
    t.clock.set('2026-11-09T08:50:00Z');
    expect(await pass(nearBoundary.id, dee, eli)).toBe(fay.id);
  });

  test('taking on-call is refused when someone holds it, for non-members, incident managers and suspended rotations', async () => {
    const held = await rotation({
      memberIds: ids(people.olivia, people.noah, people.irisOnCall),
      holderId: people.olivia.id,
    });
    const taken = await t.call(people.noah, 'POST', `/api/rotations/${held.id}/take-oncall`);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      message: 'Someone is already on call for this rotation.',
      code: 'BATON_ALREADY_HELD',
    });
    const free = await rotation({ memberIds: ids(people.olivia) });
    const outsider = await t.call(people.outsider, 'POST', `/api/rotations/${free.id}/take-oncall`);
    expect(outsider.statusCode).toBe(409);
    expect(outsider.json()).toEqual({
      message: 'You must be a member of this rotation to take on-call.',
      code: 'NOT_A_MEMBER',
    });
    const incident = await t.call(people.iris, 'POST', `/api/rotations/${free.id}/take-oncall`);
    expect(incident.statusCode).toBe(403);
    const suspended = await rotation({ suspended: true, memberIds: ids(people.olivia) });
    const refused = await t.call(
      people.olivia,
      'POST',
      `/api/rotations/${suspended.id}/take-oncall`,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'This rotation is suspended and does not accept handoffs. Activate it first.',
      code: 'ROTATION_SUSPENDED',
    });
    expect(await handoffsOf(suspended.id)).toEqual([]);
    const missing = await t.call(people.olivia, 'POST', '/api/rotations/999999/take-oncall');
    expect(missing.statusCode).toBe(404);
  });

  test('an incident manager who also holds the on-call role may take on-call', async () => {
    const r = await rotation({ memberIds: ids(people.irisOnCall) });
    const res = await t.call(people.irisOnCall, 'POST', `/api/rotations/${r.id}/take-oncall`);
    expect(res.statusCode).toBe(200);
  });

  test('the holder passes the baton with notes: new holder, holder since, a pass handoff in the same change', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.olivia.id,
      holderSince: new Date('2026-10-30T09:00:00Z'),
    });
    t.clock.set('2026-11-02T15:30:00Z');
    const res = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.sam.id,
      notes: '  Disk alarms on db-3 are known.  ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      currentOnCallUserId: people.sam.id,
      holderSince: '2026-11-02T15:30:00.000Z',
      nextOnCall: { id: people.olivia.id },
    });
    const [h] = await handoffsOf(r.id);
    expect(h).toMatchObject({
      fromUserId: people.olivia.id,
      toUserId: people.sam.id,
      kind: 'pass',
      status: 'success',
      notes: 'Disk alarms on db-3 are known.',
      urgent: false,
      occurredAt: new Date('2026-11-02T15:30:00Z'),
    });
    // Empty notes are not stored; an urgent handoff is flagged.
    await t.call(people.sam, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.noah.id,
      notes: '   ',
      urgent: true,
    });
    const [second] = await handoffsOf(r.id);
    expect(second).toMatchObject({ fromUserId: people.sam.id, notes: null, urgent: true });
  });

  test('passing is refused for non-holders, to oneself, to non-members, to members who cannot hold it, and in suspended rotations', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.olivia.id,
    });
    const url = `/api/rotations/${r.id}/handoff`;
    const notHolder = await t.call(people.noah, 'POST', url, { toUserId: people.sam.id });
    expect(notHolder.statusCode).toBe(409);
    expect(notHolder.json()).toEqual({
      message: 'You must be on-call to pass the baton.',
      code: 'NOT_ON_CALL',
    });
    const self = await t.call(people.olivia, 'POST', url, { toUserId: people.olivia.id });
    expect(self.statusCode).toBe(400);
    const stranger = await t.call(people.olivia, 'POST', url, { toUserId: people.outsider.id });
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json()).toMatchObject({
      code: 'NOT_A_MEMBER',
      message: 'The person you chose is not a member of this rotation.',
      fields: { toUserId: 'The person you chose is not a member of this rotation.' },
    });
    const none = await t.call(people.olivia, 'POST', url, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().fields.toUserId).toBe('Please select a team member to pass the baton to');
    const incident = await t.call(people.iris, 'POST', url, { toUserId: people.sam.id });
    expect(incident.statusCode).toBe(403);

    // A member whose role changed to incident manager since joining cannot receive the baton.
    const demoted = await t.createUser({ name: 'Dee Demoted', roles: ['on-call'] });
    const withDemoted = await rotation({
      memberIds: [people.olivia.id, demoted.id],
      holderId: people.olivia.id,
    });
    await t.database.db
      .update(users)
      .set({ roles: ['incident_manager'], role: 'incident_manager' })
      .where(eq(users.id, demoted.id));
    const cannot = await t.call(people.olivia, 'POST', `/api/rotations/${withDemoted.id}/handoff`, {
      toUserId: demoted.id,
    });
    expect(cannot.statusCode).toBe(409);
    expect(cannot.json().code).toBe('CANNOT_HOLD_BATON');

    const suspended = await rotation({
      suspended: true,
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    const refused = await t.call(people.olivia, 'POST', `/api/rotations/${suspended.id}/handoff`, {
      toUserId: people.noah.id,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ROTATION_SUSPENDED');
    expect(await handoffsOf(r.id)).toEqual([]);
    expect(await handoffsOf(suspended.id)).toEqual([]);
  });

  test('a manager reassigns the baton to a member other than the holder (reassign handoff)', async () => {
    const r = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.olivia.id,
    });
    const url = `/api/rotations/${r.id}/assign-oncall`;
    const res = await t.call(people.manager, 'POST', url, {
      toUserId: people.sam.id,
      notes: 'Olivia is out sick',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().currentOnCallUserId).toBe(people.sam.id);
    const [h] = await handoffsOf(r.id);
    expect(h).toMatchObject({
      fromUserId: people.olivia.id,
      toUserId: people.sam.id,
      kind: 'reassign',
      notes: 'Olivia is out sick',
    });
    const toHolder = await t.call(people.admin, 'POST', url, {
      toUserId: people.sam.id,
      notes: '',
    });
    expect(toHolder.statusCode).toBe(409);
    expect(toHolder.json().message).toBe('That person is already on call. Choose someone else.');
    const stranger = await t.call(people.admin, 'POST', url, { toUserId: people.outsider.id });
    expect(stranger.statusCode).toBe(409);
    const none = await t.call(people.admin, 'POST', url, { notes: '' });
    expect(none.json().fields.toUserId).toBe('Please select a team member to assign on-call to');
    expect(
      (await t.call(people.olivia, 'POST', url, { toUserId: people.noah.id })).statusCode,
    ).toBe(403);
    expect((await t.call(people.iris, 'POST', url, { toUserId: people.noah.id })).statusCode).toBe(
      403,
    );

    const empty = await rotation({ memberIds: ids(people.olivia, people.noah) });
    const first = await t.call(people.admin, 'POST', `/api/rotations/${empty.id}/assign-oncall`, {
      toUserId: people.noah.id,
      notes: null,
    });
    expect(first.statusCode).toBe(200);
    const [h2] = await handoffsOf(empty.id);
    expect(h2).toMatchObject({ fromUserId: null, toUserId: people.noah.id, notes: null });

    const suspended = await rotation({
      createdById: people.manager.id,
      suspended: true,
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    const refused = await t.call(
      people.manager,
      'POST',
      `/api/rotations/${suspended.id}/assign-oncall`,
      {
        toUserId: people.noah.id,
      },
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ROTATION_SUSPENDED');
  });

  test('take, pass and reassign answer exactly what a read of the rotation shows right after', async () => {
    const get = async (id: number, user: User) =>
      (await t.call(user, 'GET', `/api/rotations/${id}`)).json();
    const fixed = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam),
    });
    const scheduled = await rotation({
      createdById: people.manager.id,
      type: 'scheduled',
      memberIds: ids(people.olivia, people.noah, people.sam),
    });
    const now = t.clock.now().getTime();
    await t.database.db.insert(scheduleEntries).values({
      rotationId: scheduled.id,
      userId: people.sam.id,
      startAt: new Date(now + 2 * HOUR),
      endAt: new Date(now + 3 * HOUR),
    });
    for (const r of [fixed, scheduled]) {
      const base = `/api/rotations/${r.id}`;
      const took = await t.call(people.olivia, 'POST', `${base}/take-oncall`);
      expect(took.statusCode).toBe(200);
      expect(took.json()).toEqual(await get(r.id, people.olivia));
      t.clock.advance(60_000);
      const passed = await t.call(people.olivia, 'POST', `${base}/handoff`, {
        toUserId: people.noah.id,
        notes: 'Quiet night',
        urgent: true,
      });
      expect(passed.statusCode).toBe(200);
      // The receiver must acknowledge; the urgent pass keeps the previous holder as backup.
      expect(passed.json().unacknowledgedHandoff).toMatchObject({ kind: 'pass', urgent: true });
      // The receiver's banner quotes the notes and who wrote them (decision 187).
      expect((await get(r.id, people.noah)).unacknowledgedHandoff).toMatchObject({
        notes: 'Quiet night',
        notesBy: { id: people.olivia.id, name: people.olivia.name },
      });
      expect(passed.json().backupOnCall?.id).toBe(people.olivia.id);
      expect(passed.json()).toEqual(await get(r.id, people.olivia));
      t.clock.advance(60_000);
      const reassigned = await t.call(people.manager, 'POST', `${base}/assign-oncall`, {
        toUserId: people.sam.id,
      });
      expect(reassigned.statusCode).toBe(200);
      expect(reassigned.json()).toEqual(await get(r.id, people.manager));
    }
  });

  test('a change recorded before a later handoff (a clock set back) answers the later one as latest', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    // Another instance, its clock ahead, recorded a handoff ten minutes from now.
    await t.database.db.insert(handoffs).values({
      rotationId: r.id,
      fromUserId: people.noah.id,
      toUserId: people.olivia.id,
      kind: 'pass',
      urgent: true,
      occurredAt: new Date(t.clock.now().getTime() + 10 * 60_000),
    });
    const passed = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.noah.id,
    });
    expect(passed.statusCode).toBe(200);
    const read = (await t.call(people.olivia, 'GET', `/api/rotations/${r.id}`)).json();
    expect(passed.json()).toEqual(read);
    // The later handoff is Noah → Olivia, which no longer matches the holder: no acknowledgement.
    expect(read.unacknowledgedHandoff).toBeNull();
  });
});

describe('coverage', () => {
  const at = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();

  test('the holder asks another member to cover a window: stored pending, answered with both people', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah, people.priya),
      holderId: people.olivia.id,
    });
    const res = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/cover`, {
      rotationId: r.id,
      coveringUserId: people.priya.id,
      startTime: at(2),
      endTime: at(26),
      notes: 'Dentist',
    });
    expect(res.statusCode).toBe(201);
    const body = CoverageRequestSchema.parse(res.json());
    expect(body).toEqual({
      id: expect.any(Number),
      rotationId: r.id,
      requester: expect.objectContaining({ id: people.olivia.id, name: 'Olivia Ortiz' }),
      coveringUser: expect.objectContaining({ id: people.priya.id, name: 'Priya Patel' }),
      startTime: at(2),
      endTime: at(26),
      notes: 'Dentist',
      status: 'pending',
    });
    const [row] = await t.database.db
      .select()
      .from(coverageRequests)
      .where(eq(coverageRequests.id, body.id));
    expect(row).toMatchObject({ requesterId: people.olivia.id, status: 'pending' });
    // Starting now, without notes.
    const now = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/cover`, {
      coveringUserId: people.noah.id,
      startTime: at(0),
      endTime: at(1),
      notes: null,
    });
    expect(now.statusCode).toBe(201);
    expect(now.json().notes).toBeNull();
  });

  test('coverage is refused for non-holders, oneself, non-members, past starts and ends before starts', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    const url = `/api/rotations/${r.id}/cover`;
    const ask = (coveringUserId: number, startTime = at(1), endTime = at(5)) => ({
      coveringUserId,
      startTime,
      endTime,
      notes: null,
    });
    const notHolder = await t.call(people.noah, 'POST', url, ask(people.olivia.id));
    expect(notHolder.statusCode).toBe(409);
    expect(notHolder.json()).toEqual({
      message: 'You must be on-call to request coverage',
      code: 'NOT_ON_CALL',
    });
    const self = await t.call(people.olivia, 'POST', url, ask(people.olivia.id));
    expect(self.statusCode).toBe(400);
    const stranger = await t.call(people.olivia, 'POST', url, ask(people.outsider.id));
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json().fields).toHaveProperty('coveringUserId');
    const past = await t.call(people.olivia, 'POST', url, ask(people.noah.id, at(-2)));
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toEqual({ startTime: 'Start time cannot be in the past' });
    const backwards = await t.call(people.olivia, 'POST', url, ask(people.noah.id, at(5), at(1)));
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fields).toEqual({ endTime: 'End time must be after start time' });
    const missing = await t.call(people.olivia, 'POST', url, { startTime: at(1), endTime: at(2) });
    expect(missing.json().fields.coveringUserId).toBe('Please select a team member to cover you');
    const wrongRotation = await t.call(people.olivia, 'POST', url, {
      ...ask(people.noah.id),
      rotationId: r.id + 1000,
    });
    expect(wrongRotation.statusCode).toBe(400);
    expect((await t.call(people.iris, 'POST', url, ask(people.noah.id))).statusCode).toBe(403);
    const rows = await t.database.db
      .select()
      .from(coverageRequests)
      .where(eq(coverageRequests.rotationId, r.id));
    expect(rows).toEqual([]);
  });
});
