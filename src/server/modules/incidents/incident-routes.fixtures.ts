import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import {
  type Incident,
  IncidentSchema,
  TimelineEventSchema,
} from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import type { OpenOptions } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { auditEvents, type IncidentPolicyCopy, notifications, pages } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { sealReason } from '../audit/audit-sealed';
import { type IncidentTextField, incidentTextCtx, pageMessageCtx } from './incident-text';

/*
 * What the incident route suites share. Each suite calls setUpIncidentApp() once, at its top: its
 * own app and database, with the people below. Files in one worker share this module (decision
 * 230), so `t` and `people` are set afresh by each file's beforeAll and name that file's app.
 */

const MINUTE = 60_000;
export const START = '2026-11-02T12:00:00Z';

/** the suite's app, set by setUpIncidentApp's beforeAll */
export let t: TestApp;

/** the suite's users, created by setUpIncidentApp's beforeAll */
export const people = {} as Record<
  'manager' | 'olivia' | 'noah' | 'priya' | 'iris' | 'admin' | 'outsider',
  User
>;

/**
 * setUpIncidentApp builds the suite's app (with `db`'s options) and its people before the tests;
 * before each it deletes the incidents and sets the clock to START; it closes the app after.
 */
export function setUpIncidentApp(db: OpenOptions = {}) {
  beforeAll(async () => {
    t = await createTestApp({ db });
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
}

/** get reads an answer and checks it against its contract, with no key the contract lacks. */
export async function getIncident(user: User, id: number): Promise<Incident> {
  const res = await t.call(user, 'GET', `/api/incidents/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Incident;
  expect(IncidentSchema.parse(body)).toEqual(body);
  for (const event of body.timeline ?? []) expect(TimelineEventSchema.parse(event)).toEqual(event);
  return body;
}

/** A rotation Morgan created: Olivia holds the baton, then Noah, then Priya. */
export async function rotation(name = `Platform ${Math.random().toString(36).slice(2, 7)}`) {
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

export interface IncidentSeed {
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
export async function insertIncident(seed: IncidentSeed = {}) {
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
export async function insertEvent(
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

export async function insertNotification(
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

export const at = (minutes: number) => new Date(Date.parse(START) + minutes * MINUTE);
