import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { rotationMembers, scheduleEntries } from '../../db/schema';
import {
  auditOf,
  HOUR,
  handoffsOf,
  ids,
  people,
  rotation,
  setUpRotationApp,
  t,
} from './rotation-routes.fixtures';

setUpRotationApp();

describe('members', () => {
  test('adding puts the member last (highest order + 1, or 0) and records it', async () => {
    const r = await rotation({ createdById: people.manager.id });
    const first = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.olivia.id,
      order: 0,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().members.map((m: { userId: number; order: number }) => m.order)).toEqual([
      0,
    ]);
    // A manager counts as eligible; the order sent by the client does not decide the position.
    const second = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.priya.id,
      order: 0,
    });
    expect(
      second.json().members.map((m: { userId: number; order: number }) => [m.userId, m.order]),
    ).toEqual([
      [people.olivia.id, 0],
      [people.priya.id, 1],
    ]);
    const events = await auditOf(r.id);
    expect(events.map((e) => [e.action, e.details])).toEqual([
      ['rotation.member_added', { userId: people.olivia.id, order: 0 }],
      ['rotation.member_added', { userId: people.priya.id, order: 1 }],
    ]);
  });

  test('adding refuses an incident manager, an existing member, an unknown user and an on-call caller', async () => {
    const r = await rotation({ createdById: people.manager.id, memberIds: ids(people.olivia) });
    const incident = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.iris.id,
    });
    expect(incident.statusCode).toBe(409);
    expect(incident.json().message).toBe(
      'Only users with the on-call or manager role can be added to a rotation.',
    );
    const twice = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.olivia.id,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('That person is already a member of this rotation.');
    const unknown = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: 999999,
    });
    expect(unknown.statusCode).toBe(404);
    const none = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().fields.userId).toBe('Please select a team member');
    const denied = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.noah.id,
    });
    expect(denied.statusCode).toBe(403);
  });

  test('removing a member renumbers the rest without gaps and records it', async () => {
    const r = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam, people.priya),
      holderId: people.olivia.id,
    });
    const res = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${r.id}/on-call/${people.noah.id}`,
    );
    expect(res.statusCode).toBe(200);
    expect(
      res.json().members.map((m: { userId: number; order: number }) => [m.userId, m.order]),
    ).toEqual([
      [people.olivia.id, 0],
      [people.sam.id, 1],
      [people.priya.id, 2],
    ]);
    expect(res.json().currentOnCallUserId).toBe(people.olivia.id);
    expect(await handoffsOf(r.id)).toEqual([]);
    expect((await auditOf(r.id)).map((e) => [e.action, e.details])).toEqual([
      [
        'rotation.member_removed',
        {
          userId: people.noah.id,
          wasHolder: false,
          newHolderUserId: null,
          removedScheduleEntries: 0,
        },
      ],
    ]);
    const again = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${r.id}/on-call/${people.noah.id}`,
    );
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('That person is not a member of this rotation.');
    const denied = await t.call(
      people.olivia,
      'DELETE',
      `/api/rotations/${r.id}/on-call/${people.sam.id}`,
    );
    expect(denied.statusCode).toBe(403);
  });

  test('removing the holder passes the baton to the next member who can hold it (handoff member_removed)', async () => {
    const r = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.noah.id,
    });
    // Noah's upcoming schedule entry goes with him; a past one stays as history.
    const now = t.clock.now().getTime();
    await t.database.db.insert(scheduleEntries).values([
      {
        rotationId: r.id,
        userId: people.noah.id,
        startAt: new Date(now + HOUR),
        endAt: new Date(now + 2 * HOUR),
      },
      {
        rotationId: r.id,
        userId: people.noah.id,
        startAt: new Date(now - 5 * HOUR),
        endAt: new Date(now - 4 * HOUR),
      },
    ]);
    const res = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${r.id}/on-call/${people.noah.id}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      currentOnCallUserId: people.sam.id,
      holderSince: t.clock.now().toISOString(),
      nextOnCall: { id: people.olivia.id },
    });
    const [h] = await handoffsOf(r.id);
    expect(h).toMatchObject({
      fromUserId: people.noah.id,
      toUserId: people.sam.id,
      kind: 'member_removed',
      status: 'success',
      notes: null,
    });
    const left = await t.database.db
      .select()
      .from(scheduleEntries)
      .where(eq(scheduleEntries.rotationId, r.id));
    expect(left).toHaveLength(1);
    const [event] = await auditOf(r.id);
    expect(event.details).toMatchObject({
      wasHolder: true,
      newHolderUserId: people.sam.id,
      removedScheduleEntries: 1,
    });
  });

  test('removing the holder of a suspended rotation, or the only member, leaves no holder (recorded)', async () => {
    const suspended = await rotation({
      createdById: people.manager.id,
      suspended: true,
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    const res = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${suspended.id}/on-call/${people.olivia.id}`,
    );
    expect(res.json()).toMatchObject({
      currentOnCallUserId: null,
      currentOnCall: null,
      holderSince: null,
    });
    const [h] = await handoffsOf(suspended.id);
    expect(h).toMatchObject({
      fromUserId: people.olivia.id,
      toUserId: null,
      kind: 'member_removed',
    });

    const solo = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.sam),
      holderId: people.sam.id,
    });
    const alone = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${solo.id}/on-call/${people.sam.id}`,
    );
    expect(alone.json()).toMatchObject({
      members: [],
      currentOnCallUserId: null,
      nextOnCall: null,
    });
  });

  test('reorder takes a complete permutation and refuses anything else', async () => {
    const r = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.olivia.id,
    });
    const memberRows = await t.database.db
      .select()
      .from(rotationMembers)
      .where(eq(rotationMembers.rotationId, r.id))
      .orderBy(rotationMembers.order);
    const [o, n, s] = memberRows.map((m) => m.id);
    const url = `/api/rotations/${r.id}/members/reorder`;
    // Swap every position at once: the deferred unique order constraint allows it.
    const res = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 1 },
        { id: n, order: 2 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().members.map((m: { userId: number }) => m.userId)).toEqual(
      ids(people.sam, people.olivia, people.noah),
    );
    expect(res.json().nextOnCall.id).toBe(people.noah.id);
    expect((await auditOf(r.id)).map((e) => [e.action, e.details])).toEqual([
      ['rotation.members_reordered', { userIds: ids(people.sam, people.olivia, people.noah) }],
    ]);

    const incomplete = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 1 },
      ],
    });
    expect(incomplete.statusCode).toBe(409);
    expect(incomplete.json().message).toBe(
      'The members of this rotation have changed. Refresh and try again.',
    );
    const duplicate = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 0 },
        { id: n, order: 2 },
      ],
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().message).toBe(
      'The new order must list every member once, with positions 0 to N-1.',
    );
    const stranger = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 1 },
        { id: 999999, order: 2 },
      ],
    });
    expect(stranger.statusCode).toBe(409);
    const gap = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 1 },
        { id: n, order: 5 },
      ],
    });
    expect(gap.statusCode).toBe(400);
    const malformed = await t.call(people.manager, 'PATCH', url, { members: 'all' });
    expect(malformed.statusCode).toBe(400);
    const denied = await t.call(people.olivia, 'PATCH', url, { members: [{ id: s, order: 0 }] });
    expect(denied.statusCode).toBe(403);
    // Nothing refused changed anything.
    const after = await t.call(people.manager, 'GET', `/api/rotations/${r.id}`);
    expect(after.json().members.map((m: { userId: number }) => m.userId)).toEqual(
      ids(people.sam, people.olivia, people.noah),
    );
  });
});
