import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { rotations } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { digestDueOn, postDigests } from '../calendar/digest-task';
import { scheduledRotationsTask } from '../schedules/schedule-task';
import { shiftChangesTask } from '../shift-changes/shift-change-task';
import {
  create,
  deliverAll,
  hook,
  people,
  rotation,
  setUpDestinationSuite,
  slack,
  t,
} from './destination-routes.fixtures';

// The events destinations hear beyond a person's handoff and an incident's course: time off,
// shifts moved, the daily digest, the engine's handoffs and an escalation by hand.
setUpDestinationSuite();

describe('time off, shifts moved and the daily digest', () => {
  const engineDeps = () => ({
    config: t.config,
    database: t.database,
    cipher: t.cipher,
    clock: t.clock,
  });

  test('time off is posted once to each of the person’s rotations that want it', async () => {
    const r = await rotation();
    await create(people.manager, {
      kind: 'webhook',
      url: hook.url,
      rotationId: r.id,
      events: ['time-off'],
    });
    await create(people.manager, {
      kind: 'slack',
      url: slack.url,
      rotationId: r.id,
      events: ['handoff'],
    });
    const res = await t.call(people.noah, 'POST', `/api/users/${people.noah.id}/time-off`, {
      startTime: '2026-11-20T09:00:00Z',
      endTime: '2026-11-27T09:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    await deliverAll();
    expect(slack.received).toHaveLength(0);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].body).toMatchObject({
      type: 'time-off',
      data: {
        person: 'Noah Nakamura',
        rotation: { id: r.id },
        startAt: '2026-11-20T09:00:00.000Z',
      },
    });
  });

  test('shifts moved by an edit are posted once, when the change is told', async () => {
    const r = await rotation();
    await create(people.manager, {
      kind: 'webhook',
      url: hook.url,
      rotationId: r.id,
      events: ['shift-moved'],
    });
    const res = await t.call(people.manager, 'PATCH', `/api/rotations/${r.id}`, {
      handoffTime: '13:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(3 * 60_000);
    await shiftChangesTask(engineDeps(), t.clock.now());
    await shiftChangesTask(engineDeps(), t.clock.now());
    await deliverAll();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].body).toMatchObject({
      type: 'shift-moved',
      data: { rotation: { id: r.id } },
    });
  });

  test('the digest goes at its local time, once per local day', async () => {
    const r = await rotation();
    await create(people.manager, {
      kind: 'slack',
      url: slack.url,
      rotationId: r.id,
      events: ['digest'],
      digestTime: '09:00',
      digestTimeZone: 'America/New_York',
    });
    // 12:00 UTC is 07:00 in New York: not yet.
    await postDigests(engineDeps(), t.clock.now());
    await deliverAll();
    expect(slack.received).toHaveLength(0);
    t.clock.set('2026-11-02T14:05:00Z'); // 09:05 in New York
    await postDigests(engineDeps(), t.clock.now());
    t.clock.set('2026-11-02T14:35:00Z');
    await postDigests(engineDeps(), t.clock.now());
    await deliverAll();
    expect(slack.received).toHaveLength(1);
    const body = slack.received[0].body as { text: string; blocks: unknown[] };
    expect(body.text).toBe(`On call today and this week: ${r.name}`);
    expect(JSON.stringify(body.blocks)).toContain('Olivia Ortiz');
    t.clock.set('2026-11-03T14:01:00Z'); // the next day
    await postDigests(engineDeps(), t.clock.now());
    await deliverAll();
    expect(slack.received).toHaveLength(2);
  });

  test('a policy’s and an integration’s destinations get the digest of each rotation that follows the policy', async () => {
    const first = await rotation();
    const second = await rotation();
    // Both rotations follow the first one's policy.
    await t.database.db
      .update(rotations)
      .set({ escalationPolicyId: first.escalationPolicyId })
      .where(eq(rotations.id, second.id));
    const integration = await t.call(people.manager, 'POST', '/api/integrations', {
      name: 'Grafana',
      escalationPolicyId: first.escalationPolicyId,
    });
    expect(integration.statusCode, integration.body).toBe(201);
    const digest = { kind: 'slack', url: slack.url, events: ['digest'], digestTime: '09:00' };
    await create(people.manager, {
      ...digest,
      escalationPolicyId: first.escalationPolicyId,
      digestTimeZone: 'UTC',
    });
    await create(people.manager, {
      ...digest,
      integrationId: integration.json().id,
      digestTimeZone: 'UTC',
    });
    t.clock.set('2026-11-05T09:10:00Z');
    await postDigests(engineDeps(), t.clock.now());
    t.clock.set('2026-11-05T09:40:00Z');
    await postDigests(engineDeps(), t.clock.now());
    await deliverAll();
    const texts = slack.received.map((m) => (m.body as { text: string }).text).sort();
    expect(texts).toEqual(
      [first.name, first.name, second.name, second.name]
        .map((name) => `On call today and this week: ${name}`)
        .sort(),
    );
  });
});

test.each([
  ['2026-11-02T14:00:00Z', 'America/New_York', '09:00', '2026-11-02'],
  ['2026-11-02T13:59:00Z', 'America/New_York', '09:00', null],
  ['2026-11-02T15:00:00Z', 'America/New_York', '09:00', null],
  // The day Europe/London leaves summer time: 09:00 local is 09:00 UTC.
  ['2026-10-25T09:30:00Z', 'Europe/London', '09:00', '2026-10-25'],
  ['2026-10-26T23:30:00Z', 'Asia/Tokyo', '08:00', '2026-10-27'],
])('digestDueOn(%s, %s, %s) is %s', (now, zone, time, expected) => {
  expect(digestDueOn(new Date(now), zone, time)).toBe(expected);
});

test('a scheduled rotation’s handoff by the engine is posted once', async () => {
  const r = await insertRotation(t.database.db, {
    name: `Scheduled ${Math.random().toString(36).slice(2, 7)}`,
    type: 'scheduled',
    memberIds: [people.olivia.id, people.noah.id],
    createdById: people.manager.id,
    now: t.clock.now(),
  });
  await t.database.db.update(rotations).set({ nextHandoffAt: null }).where(eq(rotations.id, r.id));
  await create(people.manager, {
    kind: 'webhook',
    url: hook.url,
    rotationId: r.id,
    events: ['handoff'],
  });
  const add = await t.call(people.admin, 'POST', `/api/rotations/${r.id}/schedules`, {
    userId: people.noah.id,
    startTime: '2026-11-02T13:00:00Z',
    endTime: '2026-11-02T17:00:00Z',
  });
  expect(add.statusCode, add.body).toBe(201);
  const engine = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
  t.clock.set('2026-11-02T13:00:00Z');
  await scheduledRotationsTask(engine, t.clock.now());
  await scheduledRotationsTask(engine, t.clock.now());
  await deliverAll();
  expect(hook.received).toHaveLength(1);
  expect(hook.received[0].body).toMatchObject({
    type: 'handoff',
    data: { to: 'Noah Nakamura', how: 'scheduled', rotation: { id: r.id } },
  });
});

test('an incident escalated by hand is posted once to its policy’s destination, naming whom it pages', async () => {
  const r = await rotation();
  await create(people.manager, {
    kind: 'webhook',
    url: hook.url,
    escalationPolicyId: r.escalationPolicyId,
    events: ['incident.escalated'],
  });
  const raised = await t.call(people.manager, 'POST', '/api/incidents', {
    title: 'Queue stuck',
    rotationId: r.id,
  });
  expect(raised.statusCode, raised.body).toBe(201);
  const id = raised.json().id as number;
  const escalated = await t.call(people.manager, 'POST', `/api/incidents/${id}/escalate`, {
    reason: 'Olivia is on a plane',
  });
  expect(escalated.statusCode, escalated.body).toBe(200);
  await deliverAll();
  expect(hook.received.map((m) => (m.body as { type: string }).type)).toEqual([
    'incident.escalated',
  ]);
  expect(hook.received[0].body).toMatchObject({ data: { incident: { id, title: 'Queue stuck' } } });
});
