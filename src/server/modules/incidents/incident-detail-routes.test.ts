import { eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import {
  INCIDENT_MESSAGES,
  type Incident,
  IncidentSchema,
} from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import { defaultEscalationPolicy } from '../../../shared/domain/escalation';
import { selectRows } from '../../db/client';
import { auditEvents, pages } from '../../db/schema';
import {
  at,
  getIncident,
  insertEvent,
  insertIncident,
  people,
  rotation,
  START,
  setUpIncidentApp,
  t,
} from './incident-routes.fixtures';

setUpIncidentApp();

describe('GET /api/incidents/:id', () => {
  test('a page raised on a rotation reads as an incident on its default policy', async () => {
    const r = await rotation('Payments');
    const raised = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/page`, {
      message: 'Checkout is failing',
      urgency: 'high',
    });
    expect(raised.statusCode, raised.body).toBe(201);
    const [row] = await t.database.db.select().from(pages).where(eq(pages.rotationId, r.id));

    const incident = await getIncident(people.outsider, row.id);
    expect(incident).toMatchObject({
      id: row.id,
      title: 'Checkout is failing',
      severity: 'P1',
      urgency: 'high',
      description: null,
      impact: null,
      troubleshootingSteps: null,
      status: 'triggered',
      raisedBy: {
        kind: 'user',
        user: { id: people.manager.id, name: 'Morgan Manager' },
        name: 'Morgan Manager',
      },
      rotation: { id: r.id, name: 'Payments' },
      escalationPolicy: {
        id: r.escalationPolicyId,
        name: defaultEscalationPolicy(r).name,
        repeat: 0,
        stepCount: 3,
      },
      currentStep: 1,
      currentLoop: 1,
      // the default policy's first step waits 15 minutes before the reminder
      nextStepAt: at(15).toISOString(),
      exhaustedAt: null,
      assignees: [{ id: people.olivia.id, name: 'Olivia Ortiz' }],
      createdAt: START.replace('Z', '.000Z'),
      acknowledgedBy: null,
      resolvedBy: null,
      // an outsider reads it, and may do nothing to it
      actions: {
        acknowledge: false,
        resolve: false,
        escalate: false,
        reassign: false,
        addNote: false,
      },
    });
    // Raised, then the holder's notifications (Olivia prefers email).
    expect(incident.timeline?.[0]).toMatchObject({
      kind: 'raised',
      actor: { id: people.manager.id },
    });
    const notified = incident.timeline?.filter((e) => e.kind === 'notified') ?? [];
    expect(notified.length).toBeGreaterThan(0);
    expect(notified[0]).toMatchObject({
      to: { id: people.olivia.id, name: 'Olivia Ortiz' },
      channel: 'email',
      delivery: 'pending',
      error: null,
    });
  });

  test('who may act: the people notified, the raiser, the rotation’s managers, incident managers', async () => {
    const r = await rotation();
    const id = await insertIncident({ rotationId: r.id, assigneeIds: [people.olivia.id] });
    const can = async (user: User) => (await getIncident(user, id)).actions;
    expect(await can(people.olivia)).toEqual({
      acknowledge: true,
      resolve: true,
      escalate: true,
      reassign: true,
      addNote: true,
      reopen: false,
    });
    expect((await can(people.manager)).acknowledge).toBe(true); // raised it, created the rotation
    expect((await can(people.iris)).escalate).toBe(true);
    expect((await can(people.admin)).reassign).toBe(true);
    expect((await can(people.noah)).acknowledge).toBe(false); // a member, never notified
    const resolved = await insertIncident({ rotationId: r.id, status: 'resolved' });
    expect((await getIncident(people.olivia, resolved)).actions).toEqual({
      acknowledge: false,
      resolve: false,
      escalate: false,
      reassign: false,
      addNote: true,
      reopen: true,
    });
  });

  test('an incident on a policy alone: its sealed fields, its copy of the policy, its step', async () => {
    const id = await insertIncident({
      rotationId: null,
      title: 'Disk full on db-7',
      message: 'ignored: the title wins',
      severity: 'P3',
      urgency: 'low',
      description: 'The primary database disk is at 98%.',
      impact: 'Writes will fail within the hour.',
      troubleshooting: '1. Rotate the logs\n2. Grow the volume',
      status: 'escalated',
      stepIndex: 2,
      loop: 1,
      pagedById: null,
      assigneeIds: [people.manager.id],
      notifiedIds: [people.olivia.id, people.noah.id, people.manager.id],
    });
    const incident = await getIncident(people.noah, id);
    expect(incident).toMatchObject({
      title: 'Disk full on db-7',
      severity: 'P3',
      urgency: 'low',
      description: 'The primary database disk is at 98%.',
      impact: 'Writes will fail within the hour.',
      troubleshootingSteps: '1. Rotate the logs\n2. Grow the volume',
      status: 'triggered', // escalated is still waiting for a person
      raisedBy: { kind: 'system', user: null, name: 'Baton' },
      rotation: null,
      escalationPolicy: { id: null, name: 'Checkout escalation', repeat: 1, stepCount: 3 },
      currentStep: 3,
      currentLoop: 2,
      // the last step of the last loop: what follows is the end, not a step
      nextStepAt: null,
      assignees: [{ id: people.manager.id, name: 'Morgan Manager' }],
    });
    expect(incident.actions.acknowledge).toBe(true); // Noah was notified
    // The fields are sealed at rest.
    const [raw] = await selectRows<Record<string, unknown>>(
      t.database.db,
      sql`select * from pages where id = ${id}`,
    );
    const dump = JSON.stringify(raw);
    for (const clear of ['Disk full', '98%', 'Writes will fail', 'Rotate the logs']) {
      expect(dump).not.toContain(clear);
    }
  });

  test('the next step: after its delay, at once after a skip, none once exhausted or acknowledged', async () => {
    const r = await rotation();
    const second = await insertIncident({ rotationId: r.id, stepIndex: 1 });
    expect((await getIncident(people.olivia, second)).nextStepAt).toBe(at(20).toISOString());
    const skipped = await insertIncident({ rotationId: r.id, stepSkipped: true });
    expect((await getIncident(people.olivia, skipped)).nextStepAt).toBe(at(0).toISOString());
    const lastOfFirstLoop = await insertIncident({ rotationId: r.id, stepIndex: 2 });
    expect((await getIncident(people.olivia, lastOfFirstLoop)).nextStepAt).toBe(
      at(5).toISOString(),
    );
    const exhausted = await insertIncident({ rotationId: r.id, exhaustedAt: at(1) });
    expect(await getIncident(people.olivia, exhausted)).toMatchObject({
      nextStepAt: null,
      exhaustedAt: at(1).toISOString(),
      status: 'triggered',
    });
    const acknowledged = await insertIncident({
      rotationId: r.id,
      status: 'acknowledged',
      acknowledgedById: people.olivia.id,
    });
    expect(await getIncident(people.olivia, acknowledged)).toMatchObject({
      nextStepAt: null,
      status: 'acknowledged',
      acknowledgedBy: { id: people.olivia.id, name: 'Olivia Ortiz' },
    });
  });

  test('raised by an integration, or by a person since deleted', async () => {
    const fromIntegration = await insertIncident({ pagedById: null });
    await insertEvent(fromIntegration, 'incident.raised', {
      source: 'integration',
      integrationName: 'Grafana',
    });
    expect((await getIncident(people.olivia, fromIntegration)).raisedBy).toEqual({
      kind: 'integration',
      user: null,
      name: 'Grafana',
    });
    const gone = await insertIncident({ pagedById: null });
    await insertEvent(gone, 'incident.raised', { source: 'user' }, { actor: 987_654 });
    expect((await getIncident(people.olivia, gone)).raisedBy).toEqual({
      kind: 'user',
      user: null,
      name: 'A deleted person',
    });
  });

  test('a page from before incidents: its legacy events, a raise read from its row', async () => {
    const r = await rotation();
    const id = await insertIncident({ rotationId: r.id, status: 'escalated' });
    await insertEvent(id, 'page.backup_notified', {
      toUserId: people.priya.id,
      until: '2026-11-02T14:00:00Z',
    });
    await insertEvent(
      id,
      'page.escalated',
      { fromUserId: people.olivia.id, toUserId: people.noah.id, automatic: true },
      { at: at(30), reason: 'No answer within 30 minutes' },
    );
    const timeline = (await getIncident(people.olivia, id)).timeline ?? [];
    expect(timeline.map((e) => e.kind)).toEqual(['raised', 'step_reached', 'escalated']);
    expect(timeline[0].actor?.id).toBe(people.manager.id);
    expect(timeline[1].notified).toEqual([
      { id: people.priya.id, name: 'Priya Patel', reasons: ['backup'] },
    ]);
    expect(timeline[2]).toMatchObject({
      reason: 'No answer within 30 minutes',
      automatic: true,
      notified: [{ id: people.noah.id, reasons: ['next on call'] }],
    });
  });

  test('404 for an unknown incident, 400 for an id that is not one', async () => {
    const missing = await t.call(people.olivia, 'GET', '/api/incidents/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(INCIDENT_MESSAGES.notFound);
    for (const bad of ['abc', '0', '-3', '1.5']) {
      expect((await t.call(people.olivia, 'GET', `/api/incidents/${bad}`)).statusCode, bad).toBe(
        400,
      );
    }
    expect((await t.call(null, 'GET', '/api/incidents/1')).statusCode).toBe(401);
  });
});

describe('POST /api/incidents/:id/notes', () => {
  test('a responder’s note: 201 with the incident, sealed at rest, refused to others', async () => {
    const r = await rotation();
    const id = await insertIncident({ rotationId: r.id, assigneeIds: [people.noah.id] });
    t.clock.set(at(3));
    const res = await t.call(people.noah, 'POST', `/api/incidents/${id}/notes`, {
      text: 'Restarted the canary pods',
    });
    expect(res.statusCode, res.body).toBe(201);
    const incident = res.json() as Incident;
    expect(IncidentSchema.parse(incident)).toEqual(incident);
    expect(incident.timeline?.at(-1)).toEqual({
      kind: 'note',
      at: at(3).toISOString(),
      actor: { id: people.noah.id, name: 'Noah Nakamura' },
      text: 'Restarted the canary pods',
    });
    const [dump] = await selectRows<{ text: string }>(
      t.database.db,
      sql`select string_agg(details::text, ' ') as text from audit_events`,
    );
    expect(dump.text).not.toContain('canary');

    // An incident manager and the rotation's creator may add notes too; an outsider may not.
    const byIris = await t.call(people.iris, 'POST', `/api/incidents/${id}/notes`, {
      text: 'Seen',
    });
    expect(byIris.statusCode).toBe(201);
    const byMorgan = await t.call(people.manager, 'POST', `/api/incidents/${id}/notes`, {
      text: 'Ok',
    });
    expect(byMorgan.statusCode).toBe(201);
    const refused = await t.call(people.outsider, 'POST', `/api/incidents/${id}/notes`, {
      text: 'Me too',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(INCIDENT_MESSAGES.mayNotAct);
    const notes = (await getIncident(people.noah, id)).timeline?.filter((e) => e.kind === 'note');
    expect(notes?.map((n) => n.text)).toEqual(['Restarted the canary pods', 'Seen', 'Ok']);
  });

  test('bad notes and unknown incidents are 4xx and write nothing', async () => {
    const id = await insertIncident({ assigneeIds: [people.noah.id] });
    const before = await t.database.db.$count(auditEvents);
    const cases: [string, unknown, number][] = [
      [`/api/incidents/${id}/notes`, { text: '' }, 400],
      [`/api/incidents/${id}/notes`, { text: '   ' }, 400],
      [`/api/incidents/${id}/notes`, { text: 'x'.repeat(5_001) }, 400],
      [`/api/incidents/${id}/notes`, { text: 42 }, 400],
      [`/api/incidents/${id}/notes`, {}, 400],
      ['/api/incidents/abc/notes', { text: 'Hello' }, 400],
      ['/api/incidents/999999/notes', { text: 'Hello' }, 404],
    ];
    for (const [url, body, status] of cases) {
      const res = await t.call(people.noah, 'POST', url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const empty = await t.call(people.noah, 'POST', `/api/incidents/${id}/notes`, { text: '' });
    expect(empty.json().message).toContain(INCIDENT_MESSAGES.noteRequired);
    expect(await t.database.db.$count(auditEvents)).toBe(before);
  });
});
