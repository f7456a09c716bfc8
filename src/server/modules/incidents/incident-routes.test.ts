import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import {
  INCIDENT_MESSAGES,
  type Incident,
  type IncidentList,
  IncidentListSchema,
  IncidentSchema,
  TimelineEventSchema,
} from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import { defaultEscalationPolicy } from '../../../shared/domain/escalation';
import { selectRows } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { auditEvents, type IncidentPolicyCopy, notifications, pages } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { sealReason } from '../audit/audit-sealed';
import { type IncidentTextField, incidentTextCtx, pageMessageCtx } from './incident-text';

const MINUTE = 60_000;
const START = '2026-11-02T12:00:00Z';

let t: TestApp;
// Counting SQL statements is switched on only by the query-count tests.
let counting = false;
let statements = 0;

const people = {} as Record<
  'manager' | 'olivia' | 'noah' | 'priya' | 'iris' | 'admin' | 'outsider',
  User
>;

beforeAll(async () => {
  t = await createTestApp({
    db: {
      onQuery: () => {
        if (counting) statements += 1;
      },
    },
  });
  Object.assign(
    people,
    await t.cast({
      manager: {},
      olivia: {},
      noah: {},
      priya: { roles: ['on-call'] },
      iris: {},
      admin: {},
      outsider: {},
    }),
  );
});
afterAll(() => t.close());
beforeEach(async () => {
  // Each test sees only its own incidents (their events stay: the audit trail is append-only,
  // and a new incident never reuses an id).
  await t.database.db.delete(pages);
  t.clock.set(START);
});

/** get reads an answer and checks it against its contract, with no key the contract lacks. */
async function getIncident(user: User, id: number): Promise<Incident> {
  const res = await t.call(user, 'GET', `/api/incidents/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Incident;
  expect(IncidentSchema.parse(body)).toEqual(body);
  for (const event of body.timeline ?? []) expect(TimelineEventSchema.parse(event)).toEqual(event);
  return body;
}

async function list(user: User, query = ''): Promise<IncidentList> {
  const res = await t.call(user, 'GET', `/api/incidents${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as IncidentList;
  expect(IncidentListSchema.parse(body)).toEqual(body);
  return body;
}

const idsOf = (l: IncidentList) => l.incidents.map((i) => i.id);

/** A rotation Morgan created: Olivia holds the baton, then Noah, then Priya. */
async function rotation(name = `Platform ${Math.random().toString(36).slice(2, 7)}`) {
  return insertRotation(t.database.db, {
    name,
    memberIds: [people.olivia.id, people.noah.id, people.priya.id],
    holderId: people.olivia.id,
    createdById: people.manager.id,
    now: t.clock.now(),
  });
}

/** A policy copy of three steps, the last a named person, repeated once. */
const threeSteps = (rotationId: number): IncidentPolicyCopy => ({
  name: 'Checkout escalation',
  repeat: 1,
  steps: [
    {
      delayMinutes: 10,
      targets: [{ type: 'rotation-holder', id: rotationId }],
      assignment: 'everyone',
      activeHours: null,
    },
    {
      delayMinutes: 20,
      targets: [{ type: 'rotation-next', id: rotationId }],
      assignment: 'everyone',
      activeHours: null,
    },
    {
      delayMinutes: 5,
      targets: [{ type: 'user', id: people.manager.id }],
      assignment: 'everyone',
      activeHours: null,
    },
  ],
});

interface IncidentSeed {
  rotationId?: number | null;
  title?: string | null;
  message?: string;
  severity?: 'P1' | 'P2' | 'P3';
  urgency?: 'low' | 'medium' | 'high';
  description?: string;
  impact?: string;
  troubleshooting?: string;
  status?: 'triggered' | 'escalated' | 'acknowledged' | 'resolved';
  pagedById?: number | null;
  assigneeIds?: number[];
  notifiedIds?: number[];
  policy?: IncidentPolicyCopy;
  escalationPolicyId?: number | null;
  stepIndex?: number;
  loop?: number;
  stepSkipped?: boolean;
  createdAt?: Date;
  exhaustedAt?: Date | null;
  acknowledgedById?: number | null;
  resolvedById?: number | null;
}

/** insertIncident writes an incident row as the engine does: its fields sealed to the row. */
async function insertIncident(seed: IncidentSeed = {}) {
  const db = t.database.db;
  const [id] = await allocateIds(db, 'pages');
  const seal = (field: IncidentTextField, value: string | null | undefined) =>
    value == null ? null : t.cipher.encrypt(value, incidentTextCtx(field, id));
  const createdAt = seed.createdAt ?? t.clock.now();
  const status = seed.status ?? 'triggered';
  const rotationId = seed.rotationId === undefined ? null : seed.rotationId;
  const assignees = seed.assigneeIds ?? [people.olivia.id];
  await db.insert(pages).values({
    id,
    rotationId,
    pagedById: seed.pagedById === undefined ? people.manager.id : seed.pagedById,
    targetUserId: assignees[0] ?? null,
    messageEnc: t.cipher.encrypt(seed.message ?? seed.title ?? 'Incident', pageMessageCtx(id)),
    titleEnc: seal('title', seed.title),
    severity: seed.severity ?? 'P2',
    urgency: seed.urgency ?? 'high',
    descriptionEnc: seal('description', seed.description),
    impactEnc: seal('impact', seed.impact),
    troubleshootingEnc: seal('troubleshooting', seed.troubleshooting),
    status,
    createdAt,
    acknowledgedAt: status === 'acknowledged' || status === 'resolved' ? createdAt : null,
    resolvedAt: status === 'resolved' ? createdAt : null,
    acknowledgedById: seed.acknowledgedById ?? null,
    resolvedById: seed.resolvedById ?? null,
    escalationPolicyId: seed.escalationPolicyId ?? null,
    policy: seed.policy ?? threeSteps(rotationId ?? 1),
    stepIndex: seed.stepIndex ?? 0,
    loop: seed.loop ?? 0,
    stepStartedAt: createdAt,
    stepSkipped: seed.stepSkipped ?? false,
    assigneeIds: assignees,
    notifiedIds: seed.notifiedIds ?? assignees,
    exhaustedAt: seed.exhaustedAt ?? null,
  });
  return id;
}

/** insertEvent writes a timeline event as the engine does (sealing the reason to its id). */
async function insertEvent(
  incidentId: number,
  action: string,
  details: Record<string, unknown>,
  options: { actor?: number | null; at?: Date; reason?: string } = {},
) {
  const [id] = await allocateIds(t.database.db, 'audit_events');
  await t.database.db.insert(auditEvents).values({
    id,
    actorUserId: options.actor ?? null,
    action,
    targetType: 'page',
    targetId: String(incidentId),
    details: { ...details, ...(options.reason ? sealReason(t.cipher, id, options.reason) : {}) },
    createdAt: options.at ?? t.clock.now(),
  });
}

async function insertNotification(
  incidentId: number,
  values: {
    userId: number;
    channel: 'email' | 'sms';
    status: string;
    attempts: number;
    lastError?: string;
    at: Date;
  },
) {
  await t.database.db.insert(notifications).values({
    userId: values.userId,
    channel: values.channel,
    kind: 'page',
    contentEnc: 'v1.x.y.z',
    dedupeKey: `test:${incidentId}:${Math.random()}`,
    status: values.status,
    attempts: values.attempts,
    lastError: values.lastError ?? null,
    createdAt: values.at,
    pageId: incidentId,
  });
}

const at = (minutes: number) => new Date(Date.parse(START) + minutes * MINUTE);

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

  test('the timeline: every kind, oldest first, steps one-based, reasons and notes opened', async () => {
    const r = await rotation();
    const id = await insertIncident({ rotationId: r.id, title: 'API latency' });
    const olivia = people.olivia.id;
    const noah = people.noah.id;
    await insertEvent(id, 'incident.raised', { source: 'user' }, { actor: people.manager.id });
    await insertEvent(id, 'incident.step_reached', {
      step: 0,
      loop: 0,
      notified: [{ userId: olivia, reasons: ['holder'] }],
      skipped: [{ target: { type: 'rotation-backup', id: r.id }, reason: 'nobody to notify' }],
      reminder: false,
      automatic: true,
    });
    await insertNotification(id, {
      userId: olivia,
      channel: 'email',
      status: 'sent',
      attempts: 1,
      at: at(0),
    });
    await insertNotification(id, {
      userId: olivia,
      channel: 'sms',
      status: 'failed',
      attempts: 5,
      lastError: 'Twilio 21614: not a mobile number',
      at: at(0),
    });
    await insertEvent(
      id,
      'incident.step_reached',
      {
        step: 1,
        loop: 0,
        notified: [{ userId: olivia, reasons: ['holder'] }],
        skipped: [],
        reminder: true,
        automatic: true,
      },
      { at: at(10) },
    );
    await insertNotification(id, {
      userId: olivia,
      channel: 'email',
      status: 'pending',
      attempts: 1,
      lastError: 'SMTP 451',
      at: at(10),
    });
    await insertEvent(
      id,
      'incident.step_skipped',
      {
        step: 2,
        loop: 0,
        reason: 'person deleted',
        skipped: [{ target: { type: 'user', id: 4242 }, reason: 'person deleted', userId: 4242 }],
      },
      { at: at(30) },
    );
    await insertEvent(
      id,
      'incident.escalated',
      { fromStep: 2, toStep: 1, loop: 0, automatic: false },
      { actor: people.iris.id, at: at(31), reason: 'Olivia is on a plane' },
    );
    await insertEvent(
      id,
      'incident.step_reached',
      {
        step: 1,
        loop: 0,
        notified: [{ userId: noah, reasons: ['next on call'] }],
        skipped: [],
        reminder: false,
        automatic: false,
      },
      { actor: people.iris.id, at: at(31) },
    );
    await insertNotification(id, {
      userId: noah,
      channel: 'email',
      status: 'sent',
      attempts: 2,
      at: at(31),
    });
    await insertEvent(
      id,
      'incident.reassigned',
      { toUserId: people.priya.id },
      { actor: people.manager.id, at: at(35), reason: 'Priya knows the API' },
    );
    await insertEvent(id, 'incident.exhausted', { loops: 1 }, { at: at(40) });
    await insertEvent(
      id,
      'page.acknowledged',
      { via: 'sms' },
      { actor: people.priya.id, at: at(41) },
    );
    const noted = await t.call(people.priya, 'POST', `/api/incidents/${id}/notes`, {
      text: '  Rolled back the deploy  ',
    });
    expect(noted.statusCode, noted.body).toBe(403); // Priya was never notified: the event alone
    t.clock.set(at(42));
    const ok = await t.call(people.olivia, 'POST', `/api/incidents/${id}/notes`, {
      text: '  Rolled back the deploy  ',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    await insertEvent(
      id,
      'page.resolved',
      { via: 'app', from: 'acknowledged' },
      { actor: olivia, at: at(50) },
    );

    const timeline = (await getIncident(people.outsider, id)).timeline ?? [];
    const person = (u: User) => ({ id: u.id, name: u.name });
    expect(timeline).toEqual([
      { kind: 'raised', at: at(0).toISOString(), actor: person(people.manager) },
      {
        kind: 'step_reached',
        at: at(0).toISOString(),
        actor: null,
        step: 1,
        loop: 1,
        notified: [{ ...person(people.olivia), reasons: ['holder'] }],
        skipped: [
          {
            target: { type: 'rotation-backup', id: r.id },
            reason: 'nobody to notify',
            person: null,
          },
        ],
        automatic: true,
      },
      {
        kind: 'notified',
        at: at(0).toISOString(),
        actor: null,
        to: person(people.olivia),
        channel: 'email',
        delivery: 'sent',
        attempts: 1,
        error: null,
      },
      {
        kind: 'notified',
        at: at(0).toISOString(),
        actor: null,
        to: person(people.olivia),
        channel: 'sms',
        delivery: 'failed',
        attempts: 5,
        error: 'Twilio 21614: not a mobile number',
      },
      {
        kind: 'reminder',
        at: at(10).toISOString(),
        actor: null,
        step: 2,
        loop: 1,
        notified: [{ ...person(people.olivia), reasons: ['holder'] }],
        skipped: [],
        automatic: true,
      },
      {
        kind: 'notified',
        at: at(10).toISOString(),
        actor: null,
        to: person(people.olivia),
        channel: 'email',
        delivery: 'retried',
        attempts: 1,
        error: 'SMTP 451',
      },
      {
        kind: 'step_skipped',
        at: at(30).toISOString(),
        actor: null,
        step: 3,
        loop: 1,
        skipReason: 'person deleted',
        skipped: [{ target: { type: 'user', id: 4242 }, reason: 'person deleted', person: null }],
      },
      {
        kind: 'escalated',
        at: at(31).toISOString(),
        actor: person(people.iris),
        step: 2,
        loop: 1,
        reason: 'Olivia is on a plane',
        automatic: false,
      },
      {
        kind: 'step_reached',
        at: at(31).toISOString(),
        actor: person(people.iris),
        step: 2,
        loop: 1,
        notified: [{ ...person(people.noah), reasons: ['next on call'] }],
        skipped: [],
        automatic: false,
      },
      {
        kind: 'notified',
        at: at(31).toISOString(),
        actor: null,
        to: person(people.noah),
        channel: 'email',
        delivery: 'sent',
        attempts: 2,
        error: null,
      },
      {
        kind: 'reassigned',
        at: at(35).toISOString(),
        actor: person(people.manager),
        notified: [{ ...person(people.priya), reasons: ['reassigned'] }],
        reason: 'Priya knows the API',
      },
      { kind: 'exhausted', at: at(40).toISOString(), actor: null },
      { kind: 'acknowledged', at: at(41).toISOString(), actor: person(people.priya), via: 'sms' },
      {
        kind: 'note',
        at: at(42).toISOString(),
        actor: person(people.olivia),
        text: 'Rolled back the deploy',
      },
      { kind: 'resolved', at: at(50).toISOString(), actor: person(people.olivia), via: 'app' },
    ]);
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

describe('GET /api/incidents', () => {
  /** A spread of incidents a minute apart, newest last: */
  async function spread() {
    const a = await rotation('Alpha');
    const b = await rotation('Beta');
    const seeds: IncidentSeed[] = [
      { rotationId: a.id, title: 'Checkout errors', severity: 'P1', status: 'resolved' },
      { rotationId: a.id, title: 'Checkout latency', severity: 'P2', status: 'acknowledged' },
      { rotationId: b.id, title: 'Disk full', severity: 'P1', status: 'escalated' },
      {
        rotationId: b.id,
        title: null,
        message: 'checkout page blank',
        severity: 'P3',
        assigneeIds: [people.noah.id],
      },
      {
        rotationId: null,
        title: 'Certificate expiry',
        severity: 'P2',
        assigneeIds: [people.priya.id],
      },
    ];
    const ids: number[] = [];
    for (const [i, seed] of seeds.entries()) {
      ids.push(await insertIncident({ ...seed, createdAt: at(i) }));
    }
    return { a, b, ids };
  }

  test('newest first, with the counts by status, triggered including escalated', async () => {
    const { ids } = await spread();
    const all = await list(people.outsider);
    expect(idsOf(all)).toEqual([...ids].reverse());
    expect(all.counts).toEqual({ triggered: 3, acknowledged: 1, resolved: 1 });
    expect(all.nextBefore).toBeNull();
    expect(all.incidents.every((i) => i.timeline === undefined)).toBe(true);
    expect(all.incidents[2]).toMatchObject({ title: 'Disk full', status: 'triggered' });
    expect(all.incidents[1].title).toBe('checkout page blank'); // a page: its message
  });

  test('filters: status, open, severity, rotation, mine; counts ignore only the status', async () => {
    const { a, b, ids } = await spread();
    const triggered = await list(people.olivia, '?status=triggered');
    expect(idsOf(triggered)).toEqual([ids[4], ids[3], ids[2]]);
    expect(triggered.counts).toEqual({ triggered: 3, acknowledged: 1, resolved: 1 });
    expect(idsOf(await list(people.olivia, '?open=true'))).toEqual([
      ids[4],
      ids[3],
      ids[2],
      ids[1],
    ]);
    expect(idsOf(await list(people.olivia, '?open=false'))).toHaveLength(5);
    const p1 = await list(people.olivia, '?severity=P1');
    expect(idsOf(p1)).toEqual([ids[2], ids[0]]);
    expect(p1.counts).toEqual({ triggered: 1, acknowledged: 0, resolved: 1 });
    const alpha = await list(people.olivia, `?rotationId=${a.id}`);
    expect(idsOf(alpha)).toEqual([ids[1], ids[0]]);
    expect(alpha.incidents[0].rotation).toEqual({ id: a.id, name: 'Alpha' });
    expect(idsOf(await list(people.olivia, `?rotationId=${b.id}&status=resolved`))).toEqual([]);
    // mine: the incidents that notified the viewer
    const noahs = await list(people.noah, '?mine=true');
    expect(idsOf(noahs)).toEqual([ids[3]]);
    expect(noahs.counts).toEqual({ triggered: 1, acknowledged: 0, resolved: 0 });
    expect(idsOf(await list(people.olivia, '?mine=true&open=true'))).toEqual([ids[2], ids[1]]);
    expect(idsOf(await list(people.outsider, '?mine=true'))).toEqual([]);
  });

  test('paging: limit, nextBefore and before walk every incident once, ties by id', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      // two incidents share each instant: the id breaks the tie
      ids.push(await insertIncident({ createdAt: at(Math.floor(i / 2)) }));
    }
    const seen: number[] = [];
    let before: number | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const page: IncidentList = await list(
        people.olivia,
        `?limit=3${before === null ? '' : `&before=${before}`}`,
      );
      seen.push(...idsOf(page));
      expect(page.counts.triggered).toBe(7);
      before = page.nextBefore;
      if (before === null) break;
    }
    expect(seen).toEqual([...ids].reverse());
    // A cursor whose incident is gone still pages on, by id.
    expect(idsOf(await list(people.olivia, '?before=999999&limit=2'))).toEqual([ids[6], ids[5]]);
  });

  test('search: words of the sealed title, any case; counts and paging over the matches', async () => {
    const { ids } = await spread();
    const checkout = await list(people.olivia, '?q=CHECKOUT');
    expect(idsOf(checkout)).toEqual([ids[3], ids[1], ids[0]]);
    expect(checkout.counts).toEqual({ triggered: 1, acknowledged: 1, resolved: 1 });
    expect(idsOf(await list(people.olivia, '?q=checkout%20latency'))).toEqual([ids[1]]);
    expect(idsOf(await list(people.olivia, '?q=latency%20checkout'))).toEqual([ids[1]]);
    expect(idsOf(await list(people.olivia, '?q=nothing'))).toEqual([]);
    const open = await list(people.olivia, '?q=checkout&status=triggered');
    expect(idsOf(open)).toEqual([ids[3]]);
    expect(open.counts).toEqual({ triggered: 1, acknowledged: 1, resolved: 1 });
    // paging through the matches
    const first = await list(people.olivia, '?q=checkout&limit=2');
    expect(idsOf(first)).toEqual([ids[3], ids[1]]);
    expect(first.nextBefore).toBe(ids[1]);
    const second = await list(people.olivia, `?q=checkout&limit=2&before=${ids[1]}`);
    expect(idsOf(second)).toEqual([ids[0]]);
    expect(second.nextBefore).toBeNull();
    // a cursor the search does not match (from the whole list) pages on from where it stands
    expect(idsOf(await list(people.olivia, `?q=checkout&before=${ids[2]}`))).toEqual([
      ids[1],
      ids[0],
    ]);
    // blank words search nothing: the whole list
    expect(idsOf(await list(people.olivia, '?q=%20%20'))).toHaveLength(5);
  });

  test('bad queries are 400 with a message; signed-out callers 401', async () => {
    for (const query of [
      'status=escalated',
      'status=open',
      'severity=P4',
      'open=yes',
      'mine=1',
      'limit=0',
      'limit=201',
      'limit=abc',
      'before=abc',
      'before=-1',
      'rotationId=x',
      `q=${'x'.repeat(201)}`,
    ]) {
      const res = await t.call(people.olivia, 'GET', `/api/incidents?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toEqual(expect.any(String));
    }
    expect((await t.call(null, 'GET', '/api/incidents')).statusCode).toBe(401);
  });
});

describe('query counts', () => {
  async function count(user: User, url: string) {
    await t.call(user, 'GET', url); // warm the session cookie cache
    await t.database.db.execute(sql`select pg_current_xact_id()`);
    statements = 0;
    counting = true;
    const res = await t.call(user, 'GET', url);
    counting = false;
    expect(res.statusCode, res.body).toBe(200);
    return statements;
  }

  async function seed(n: number, r: { id: number }) {
    for (let i = 0; i < n; i++) {
      const id = await insertIncident({
        rotationId: i % 3 === 1 ? null : r.id,
        title: `Incident ${i}`,
        assigneeIds: [people.olivia.id, people.noah.id],
        acknowledgedById: people.priya.id,
      });
      await insertEvent(id, 'incident.raised', { source: 'user' }, { actor: people.manager.id });
      await insertNotification(id, {
        userId: people.noah.id,
        channel: 'email',
        status: 'sent',
        attempts: 1,
        at: t.clock.now(),
      });
    }
  }

  test('the list, the search and the timeline run as many statements for 1 incident as for 30', async () => {
    const r = await rotation();
    await seed(1, r);
    const [oneId] = (await list(people.olivia)).incidents.map((i) => i.id);
    const few = {
      list: await count(people.olivia, '/api/incidents?limit=100'),
      search: await count(people.olivia, '/api/incidents?q=incident&limit=100'),
      one: await count(people.olivia, `/api/incidents/${oneId}`),
    };
    await seed(29, r);
    const many = {
      list: await count(people.olivia, '/api/incidents?limit=100'),
      search: await count(people.olivia, '/api/incidents?q=incident&limit=100'),
      one: await count(people.olivia, `/api/incidents/${oneId}`),
    };
    expect((await list(people.olivia, '?limit=100')).incidents).toHaveLength(30);
    expect(many).toEqual(few);
  });
});
