import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import {
  FIRST_ON_CALL_NOT_MEMBER,
  FIRST_ON_CALL_SCHEDULED,
  MEMBERS_WITH_LAYERS,
  ROTATION_MEMBER_TWICE,
  type Rotation,
} from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, handoffs, notifications, rotations } from '../../db/schema';
import { fixedRotationsTask } from '../handoffs/handoff-flow-task';

/**
 * A rotation made with its members (issue 35, decision 255): someone holds the baton from the
 * moment it exists, on a Saturday as on a Monday, and the engine hands on from them at the first
 * boundary. Refusals name their field and write nothing.
 */

let t: TestApp;
let manager: User;
let olivia: User;
let noah: User;
let sam: User;
let incidentManager: User;

beforeAll(async () => {
  t = await createTestApp();
  manager = await t.createUser({ name: 'Mara Manager', roles: ['manager'] });
  olivia = await t.createUser({ name: 'Olivia Ortiz', roles: ['on-call'] });
  noah = await t.createUser({ name: 'Noah Nakamura', roles: ['on-call'] });
  sam = await t.createUser({ name: 'Sam Sullivan', roles: ['on-call'] });
  incidentManager = await t.createUser({ name: 'Ian Incident', roles: ['incident_manager'] });
});
afterAll(() => t.close());

const SATURDAY = new Date('2027-03-06T14:00:00Z');

async function create(body: Record<string, unknown>) {
  return t.call(manager, 'POST', '/api/rotations', {
    cadence: 'daily',
    timeZone: 'Europe/London',
    handoffTime: '09:00',
    ...body,
  });
}

const count = async (table: typeof rotations | typeof handoffs) =>
  (await t.database.db.select().from(table)).length;

test('made on a Saturday with three members, the first holds the baton at once and the engine hands on at Sunday 09:00', async () => {
  t.clock.set(SATURDAY);
  const res = await create({
    name: 'Weekend payments',
    memberIds: [olivia.id, noah.id, sam.id],
  });
  expect(res.statusCode, res.body).toBe(201);
  const rotation = res.json<Rotation>();
  expect(rotation.members.map((m) => m.user.name)).toEqual([
    'Olivia Ortiz',
    'Noah Nakamura',
    'Sam Sullivan',
  ]);
  expect(rotation.currentOnCall?.id).toBe(olivia.id);

  const [start] = await t.database.db
    .select()
    .from(handoffs)
    .where(eq(handoffs.rotationId, rotation.id));
  expect(start).toMatchObject({
    kind: 'start',
    fromUserId: null,
    toUserId: olivia.id,
    occurredAt: SATURDAY,
    acknowledgedAt: null,
  });
  // Olivia is told, as after a reassignment; the manager who made it is not.
  const told = await t.database.db
    .select()
    .from(notifications)
    .where(like(notifications.dedupeKey, `handoff:${start.id}:%`));
  expect(told.map((n) => [n.userId, n.channel])).toEqual([[olivia.id, 'email']]);
  const [created] = await t.database.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, 'rotation.created'),
        eq(auditEvents.targetId, String(rotation.id)),
      ),
    );
  expect(created.details).toMatchObject({
    memberIds: [olivia.id, noah.id, sam.id],
    firstOnCallId: olivia.id,
  });

  // The history reads it as the first on call, from no one.
  const history = await t.call(manager, 'GET', '/api/handoffs/recent');
  expect(history.statusCode, history.body).toBe(200);
  expect(history.json()).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        kind: 'start',
        fromUser: null,
        toUser: expect.objectContaining({ id: olivia.id }),
      }),
    ]),
  );

  // Sunday 09:00 London (GMT in March before the change) is the first boundary: the baton goes on
  // to Noah after the automatic transfer's wait.
  const boundary = new Date('2027-03-07T09:00:00Z');
  const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, rotation.id));
  expect(row.nextHandoffAt).toEqual(boundary);
  const after = new Date(boundary.getTime() + t.config.handoffTimings.autoTransferAfterMs);
  t.clock.set(after);
  await fixedRotationsTask(
    { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
    after,
  );
  const [moved] = await t.database.db.select().from(rotations).where(eq(rotations.id, rotation.id));
  expect(moved.holderUserId).toBe(noah.id);
});

test('firstOnCallId names who starts; the maker starting needs no acknowledgement', async () => {
  t.clock.set(SATURDAY);
  const named = await create({
    name: 'Named start',
    memberIds: [olivia.id, noah.id, sam.id],
    firstOnCallId: sam.id,
  });
  expect(named.statusCode, named.body).toBe(201);
  expect(named.json<Rotation>().currentOnCall?.id).toBe(sam.id);

  const own = await create({ name: 'Managed by its first', memberIds: [manager.id, olivia.id] });
  expect(own.statusCode, own.body).toBe(201);
  const [start] = await t.database.db
    .select()
    .from(handoffs)
    .where(eq(handoffs.rotationId, own.json<Rotation>().id));
  expect(start.acknowledgedAt).toEqual(SATURDAY);
});

test('without members a rotation still starts with no one assigned, as the specification shows', async () => {
  const res = await create({ name: 'Empty for now' });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json<Rotation>().currentOnCall).toBeNull();
  expect(res.json<Rotation>().members).toEqual([]);
});

test('a scheduled rotation takes members but no first on call: its entries say who is on call', async () => {
  const res = await create({
    name: 'Scheduled team',
    type: 'scheduled',
    memberIds: [olivia.id, noah.id],
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json<Rotation>().members).toHaveLength(2);
  expect(res.json<Rotation>().currentOnCall).toBeNull();
});

type Body = Record<string, unknown>;
const refusals: [string, () => Body, string, string][] = [
  [
    'someone twice',
    () => ({ memberIds: [olivia.id, olivia.id] }),
    'memberIds',
    ROTATION_MEMBER_TWICE,
  ],
  [
    'a first on call who is not a member',
    () => ({ memberIds: [olivia.id], firstOnCallId: noah.id }),
    'firstOnCallId',
    FIRST_ON_CALL_NOT_MEMBER,
  ],
  [
    'a first on call of a scheduled rotation',
    () => ({ type: 'scheduled', memberIds: [olivia.id], firstOnCallId: olivia.id }),
    'firstOnCallId',
    FIRST_ON_CALL_SCHEDULED,
  ],
  [
    'members beside layers',
    () => ({
      memberIds: [olivia.id],
      layers: [{ name: 'Days', memberIds: [olivia.id], cadence: 'daily', handoffTime: '09:00' }],
    }),
    'memberIds',
    MEMBERS_WITH_LAYERS,
  ],
  [
    'a user who cannot hold the baton',
    () => ({ memberIds: [olivia.id, incidentManager.id] }),
    'memberIds.1',
    'Members name someone who cannot hold the baton: only on-call members and managers hold on-call',
  ],
  [
    'someone who does not exist',
    () => ({ memberIds: [olivia.id, 987654] }),
    'memberIds.1',
    'Members name someone who is not a Baton user',
  ],
];

test.each(refusals)(
  '%s is a 400 naming the field, and nothing is written',
  async (_, body, field, message) => {
    const [rotationsBefore, handoffsBefore] = [await count(rotations), await count(handoffs)];
    const res = await create({ name: 'Refused rotation', ...body() });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields).toEqual(expect.objectContaining({ [field]: message }));
    expect([await count(rotations), await count(handoffs)]).toEqual([
      rotationsBefore,
      handoffsBefore,
    ]);
  },
);
