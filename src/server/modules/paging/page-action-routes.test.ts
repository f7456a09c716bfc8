import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { auditEvents, pages } from '../../db/schema';
import { ENGINE_TASKS } from '../../engine-tasks';
import {
  incidentTimersTask as pageTimersTask,
  runIncidentTimers as runPageTimers,
} from '../incidents/incident-escalation-task';
import {
  ackLinkIn,
  MINUTE,
  outboxFor,
  pageRotation,
  people,
  rotation,
  setUpPagingApp,
  t,
} from './paging-routes.fixtures';

setUpPagingApp();

const timers = (now = t.clock.now()) =>
  runPageTimers({ database: t.database, cipher: t.cipher, clock: t.clock, config: t.config }, now);

describe('acknowledge, resolve and escalate in the app', () => {
  test('only the current recipient acknowledges, once', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    const byOther = await t.call(people.manager, 'POST', `/api/pages/${row.id}/acknowledge`);
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().message).toBe(
      'Only the person this page was sent to can acknowledge it.',
    );
    const ack = await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`);
    expect(ack.statusCode).toBe(200);
    expect(ack.json()).toMatchObject({
      status: 'acknowledged',
      actions: { acknowledge: false, resolve: true, escalate: false },
      events: [{ kind: 'acknowledged', actor: { id: people.olivia.id }, via: 'app' }],
    });
    expect(
      (await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`)).statusCode,
    ).toBe(409);
    expect((await t.call(people.olivia, 'POST', '/api/pages/999999/acknowledge')).statusCode).toBe(
      404,
    );
  });

  test('resolve: the pager, the recipient, admins and the rotation’s managers; not others; once', async () => {
    const r = await rotation();
    const pager = await t.createUser({ name: 'Ian Incident', roles: ['incident_manager'] });
    for (const [user, allowed] of [
      [people.manager, true],
      [people.olivia, true],
      [people.admin, true],
      [people.priya, true], // manager and member
      [people.noah, false], // member, not manager
      [people.otherManager, false],
      [people.iris, false], // may page, but did not send this one
    ] as const) {
      const { row } = await pageRotation(r.id, { message: `For ${user.name}` }, pager);
      const res = await t.call(user, 'POST', `/api/pages/${row.id}/resolve`);
      expect(res.statusCode, `${user.name}: ${res.body}`).toBe(allowed ? 200 : 403);
      await t.database.db.delete(pages).where(eq(pages.id, row.id));
    }
    const { row } = await pageRotation(r.id);
    const res = await t.call(people.manager, 'POST', `/api/pages/${row.id}/resolve`);
    expect(res.json()).toMatchObject({
      status: 'resolved',
      resolvedAt: t.clock.now().toISOString(),
    });
    // The recipient of a page still open is told it needs nothing more.
    const told = (await outboxFor(row.id)).filter((n) => n.kind === 'page.resolved');
    expect(told.map((n) => n.userId)).toEqual([people.olivia.id, people.olivia.id]);
    expect((await t.call(people.manager, 'POST', `/api/pages/${row.id}/resolve`)).statusCode).toBe(
      409,
    );
    // Nothing more happens to a resolved page.
    expect(
      (await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`)).statusCode,
    ).toBe(409);
  });

  test('manual escalation needs a reason, moves the page to the next member, and keeps its history', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id, { message: 'Payments down' });
    const blank = await t.call(people.manager, 'POST', `/api/pages/${row.id}/escalate`, {
      reason: '  ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual({ reason: 'Please enter a reason' });
    expect(
      (await t.call(people.noah, 'POST', `/api/pages/${row.id}/escalate`, { reason: 'x' }))
        .statusCode,
    ).toBe(403);

    t.clock.advance(5 * MINUTE);
    const res = await t.call(people.olivia, 'POST', `/api/pages/${row.id}/escalate`, {
      reason: 'I am driving',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'escalated',
      firstTarget: { id: people.olivia.id, name: 'Olivia Ortiz' },
      target: { id: people.noah.id, name: 'Noah Nakamura' },
      escalatedAt: t.clock.now().toISOString(),
      events: [
        {
          kind: 'escalated',
          actor: { id: people.olivia.id },
          from: { id: people.olivia.id },
          to: { id: people.noah.id },
          reason: 'I am driving',
          automatic: false,
        },
      ],
    });
    const sent = (await outboxFor(row.id)).filter((n) => n.kind.startsWith('page.escalat'));
    expect(sent.map((n) => [n.kind, n.userId])).toEqual([
      ['page.escalated', people.noah.id],
      ['page.escalation_notice', people.manager.id],
    ]);
    expect(sent[0].content.text).toContain('because Olivia Ortiz did not acknowledge it');
    expect(sent[0].content.text).toContain('Reason: I am driving');
    // The reason is sealed at rest (decision 163); administrators' trail shows it opened.
    const [stored] = await t.database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'incident.escalated'), eq(auditEvents.targetId, String(row.id))),
      );
    expect(JSON.stringify(stored.details)).not.toContain('driving');
    const trail = await t.call(people.admin, 'GET', '/api/audit-log/admin-events?limit=20');
    expect(trail.statusCode, trail.body).toBe(200);
    const shown = (
      trail.json() as { events: { id: number; details: Record<string, unknown> }[] }
    ).events.find((e) => e.id === stored.id);
    expect(shown?.details).toMatchObject({ reason: 'I am driving' });
    expect(shown?.details).not.toHaveProperty('reasonEnc');
    // Noah now acknowledges; Olivia no longer can.
    expect(
      (await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`)).statusCode,
    ).toBe(403);
    expect((await t.call(people.noah, 'POST', `/api/pages/${row.id}/acknowledge`)).statusCode).toBe(
      200,
    );
    const late = await t.call(people.manager, 'POST', `/api/pages/${row.id}/escalate`, {
      reason: 'again',
    });
    expect(late.statusCode).toBe(409);
  });

  test('escalating with no one else in the rotation is refused with a message', async () => {
    const r = await rotation({ memberIds: [people.olivia.id] });
    const { row } = await pageRotation(r.id);
    const res = await t.call(people.manager, 'POST', `/api/pages/${row.id}/escalate`, {
      reason: 'No answer',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('There is no one else in this rotation to escalate to.');
  });
});

describe('the clock: the default policy reminds at 15 minutes, escalates at 30 (decision 204)', () => {
  test('a high-urgency page nobody acknowledges is reminded, then escalated on time, each once', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id, { message: 'API 500s' });
    const pagedAt = t.clock.now().getTime();
    const at = (minutes: number) => new Date(pagedAt + minutes * MINUTE);

    const none = { reminded: 0, escalated: 0, exhausted: 0 };
    expect(await timers(at(14.9))).toEqual(none);
    expect(await timers(at(15))).toEqual({ ...none, reminded: 1 });
    expect(await timers(at(16))).toEqual(none);
    let sent = await outboxFor(row.id);
    expect(sent.filter((n) => n.kind === 'page.reminder').map((n) => n.channel)).toEqual([
      'email',
      'sms',
    ]);
    const warning = sent.filter((n) => n.kind === 'page.warning');
    expect(warning.map((n) => n.userId)).toEqual([people.manager.id]);
    expect(warning[0].content.text).toContain('Olivia Ortiz has not acknowledged your page for');
    expect(warning[0].content.text).toContain('it escalates to Noah Nakamura at');
    expect(warning[0].content.text).toContain('Times are in UTC.');
    // The reminder carries the same link as the page.
    const first = sent.find((n) => n.kind === 'page' && n.channel === 'email');
    const reminder = sent.find((n) => n.kind === 'page.reminder' && n.channel === 'email');
    expect(ackLinkIn(reminder?.content.text ?? '')).toBe(ackLinkIn(first?.content.text ?? ''));

    expect(await timers(at(29.9))).toEqual(none);
    expect(await timers(at(30))).toEqual({ ...none, escalated: 1 });
    expect(await timers(at(31))).toEqual(none);
    const [escalated] = await t.database.db.select().from(pages).where(eq(pages.id, row.id));
    expect(escalated).toMatchObject({ status: 'escalated', targetUserId: people.noah.id });
    expect(escalated.escalatedAt?.getTime()).toBe(at(30).getTime());
    sent = await outboxFor(row.id);
    expect(sent.filter((n) => n.kind === 'page.escalated').map((n) => n.userId)).toEqual([
      people.noah.id,
    ]);
    // The default policy has run out 15 minutes after its last step: the incident stays open and
    // the rotation's managers (its creator Morgan, who paged; Priya, a manager member) are told, once.
    expect(await timers(at(45))).toEqual({ ...none, exhausted: 1 });
    expect(await timers(at(75))).toEqual(none);
    sent = await outboxFor(row.id);
    expect(
      sent
        .filter((n) => n.kind === 'incident.exhausted' && n.channel === 'email')
        .map((n) => n.userId),
    ).toEqual([people.manager.id, people.priya.id]);
    expect((await t.database.db.select().from(pages).where(eq(pages.id, row.id)))[0]).toMatchObject(
      { status: 'escalated', exhaustedAt: at(45) },
    );
    const history = await t.call(people.noah, 'GET', `/api/rotations/${r.id}/pages`);
    expect(history.json()[0].events).toMatchObject([
      { kind: 'escalated', actor: null, automatic: true, to: { id: people.noah.id } },
    ]);
  });

  test('the engine runs the page timers on every tick', async () => {
    expect(ENGINE_TASKS.map((task) => task.run)).toContain(pageTimersTask);
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    // One step a tick: the reminder at 15 minutes, the escalation at 30.
    for (const minutes of [15, 30]) {
      await pageTimersTask(
        { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
        new Date(row.createdAt.getTime() + minutes * MINUTE),
      );
    }
    const [after] = await t.database.db.select().from(pages).where(eq(pages.id, row.id));
    expect(after).toMatchObject({ status: 'escalated', targetUserId: people.noah.id });
  });

  test('nothing is sent for a step once the page is acknowledged', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    t.clock.advance(10 * MINUTE);
    await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`);
    for (const minutes of [15, 30, 60]) {
      expect(await timers(new Date(row.createdAt.getTime() + minutes * MINUTE))).toEqual({
        reminded: 0,
        escalated: 0,
        exhausted: 0,
      });
    }
    const kinds = (await outboxFor(row.id)).map((n) => n.kind);
    expect(kinds.filter((k) => k !== 'page' && k !== 'page.acknowledged')).toEqual([]);
  });

  test('every urgency climbs the policy (the team’s word); low by email only', async () => {
    const r = await rotation();
    const medium = (await pageRotation(r.id, { message: 'Medium', urgency: 'medium' })).row;
    const low = (await pageRotation(r.id, { message: 'Low', urgency: 'low' }, people.iris)).row;
    const base = t.clock.now().getTime();
    const none = { reminded: 0, escalated: 0, exhausted: 0 };
    expect(await timers(new Date(base + 15 * MINUTE))).toEqual({ ...none, reminded: 2 });
    expect(await timers(new Date(base + 30 * MINUTE))).toEqual({ ...none, escalated: 2 });
    const lowSent = await outboxFor(low.id);
    expect(new Set(lowSent.map((n) => n.channel))).toEqual(new Set(['email']));
    expect(lowSent.filter((n) => n.kind === 'page.escalated').map((n) => n.userId)).toEqual([
      people.noah.id,
    ]);
    const warning = (await outboxFor(medium.id)).find((n) => n.kind === 'page.warning');
    expect(warning?.content.text).toContain('it escalates to Noah Nakamura at');
    const [m] = await t.database.db.select().from(pages).where(eq(pages.id, medium.id));
    expect(m).toMatchObject({ status: 'escalated', targetUserId: people.noah.id });
  });

  test('after 3 hours down an overdue page takes one step; the next waits its full delay', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    const back = new Date(row.createdAt.getTime() + 180 * MINUTE);
    const none = { reminded: 0, escalated: 0, exhausted: 0 };
    expect(await timers(back)).toEqual({ ...none, reminded: 1 });
    // A second run at the same instant sends nothing.
    const before = (await outboxFor(row.id)).length;
    expect(await timers(back)).toEqual(none);
    expect((await outboxFor(row.id)).length).toBe(before);
    expect(await timers(new Date(back.getTime() + 14 * MINUTE))).toEqual(none);
    expect(await timers(new Date(back.getTime() + 15 * MINUTE))).toEqual({ ...none, escalated: 1 });
  });

  test('a suspended rotation notifies nobody: its steps are skipped and the policy runs out', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    const { rotations } = await import('../../db/schema');
    await t.database.db.update(rotations).set({ suspended: true }).where(eq(rotations.id, r.id));
    expect(await timers(new Date(row.createdAt.getTime() + 40 * MINUTE))).toEqual({
      reminded: 0,
      escalated: 0,
      exhausted: 1,
    });
    const kinds = (await outboxFor(row.id)).map((n) => n.kind);
    expect(kinds.filter((k) => k !== 'page' && k !== 'incident.exhausted')).toEqual([]);
    const skips = await t.database.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'incident.step_skipped'),
          eq(auditEvents.targetId, String(row.id)),
        ),
      );
    expect(skips.map((e) => [e.details.step, e.details.reason])).toEqual([
      [1, 'rotation suspended'],
      [2, 'rotation suspended'],
    ]);
  });
});
