import { ZodError } from 'zod';
import { CoverPlanInputSchema } from '../../../shared/contracts/cover-plans';
import { EscalationPolicyInputSchema } from '../../../shared/contracts/escalation-policies';
import {
  IMPORT_MESSAGES,
  IMPORT_SOURCE_LABELS,
  type ImportEndpoint,
  type ImportPerson,
  type ImportPlan,
} from '../../../shared/contracts/imports';
import type { IntegrationWithKey } from '../../../shared/contracts/integrations';
import {
  CreateRotationInputSchema,
  ScheduleEntryInputSchema,
  UpdateRotationInputSchema,
} from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { isTimeZone } from '../../../shared/domain/time-zones';
import type { AppDeps } from '../../core/deps';
import type { Tx } from '../../db/client';
import { AppError, conflict, notFound } from '../../http/errors';
import { recordAuditEvent } from '../audit/audit-events';
import { projectedShifts } from '../calendar/calendar-service';
import { planCover } from '../coverage/cover-plan-service';
import { createPolicy, updatePolicy } from '../escalation-policies/escalation-policy-service';
import { createIntegration, updateIntegration } from '../integrations/integration-service';
import { acceptImportedInvitation, createInvitation } from '../invitations/invitation-service';
import { listMembersWithUsers } from '../members/member-reads';
import { addMember } from '../rotations/rotation-members';
import { lockRotationRow } from '../rotations/rotation-repository';
import { createRotation, updateRotation } from '../rotations/rotation-service';
import { addScheduleEntry, deleteScheduleEntry } from '../schedules/schedule-service';
import { followWindows } from '../schedules/schedule-task';
import {
  type BatonState,
  buildPlan,
  coverSourceId,
  type DesiredRotation,
  desiredPolicy,
  desiredRotation,
  holdersOf,
  ImportRowError,
  integrationLeftOut,
  integrationSubject,
  isLeftOut,
  type LinkKind,
  linkKey,
  matchPeople,
  overrideSubject,
  type PlanBody,
  type PlannedEntry,
  personNames,
  policySubject,
  rotationDifferences,
  scheduleSubject,
} from './import-plan';
import {
  loadBatonState,
  lockAccount,
  lockImport,
  markApplied,
  saveLink,
} from './import-repository';
import { planOf } from './import-service';
import type { SourceSchedule, SourceSnapshot } from './source-snapshot';

/**
 * Applying an import (issue 34, decision 268): everything in one transaction, through the modules'
 * own services (each one's transaction is a savepoint in this one), so a row that fails leaves the
 * database as it was and the answer names the row.
 */

/** What apply needs: the app's deps, and the base of invitation links. */
export interface ApplyDeps extends AppDeps {
  baseUrl: string;
}

/** The deps with the apply's transaction standing in for the database. */
type InTx = AppDeps & { tx: Tx };

/** One apply's working state: what it made so far, by source id. */
interface Applying {
  d: InTx;
  actor: User;
  snapshot: SourceSnapshot;
  state: BatonState;
  importId: number;
  now: Date;
  holders: Map<string, number>;
  made: Map<string, number>;
  endpoints: ImportEndpoint[];
  /** policies left out: no step names anyone Baton has yet */
  leftOut: Set<string>;
}

/** rowFailure turns what a service refused into the answer naming the row. */
function rowFailure(subject: string, err: unknown): never {
  if (err instanceof ImportRowError) throw new AppError('IMPORT_ROW_FAILED', err.message);
  if (err instanceof AppError)
    throw new AppError('IMPORT_ROW_FAILED', `${subject}: ${err.message}`);
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const path = issue?.path.join('.');
    throw new AppError(
      'IMPORT_ROW_FAILED',
      `${subject}: ${path ? `${path}: ` : ''}${issue?.message ?? 'invalid'}`,
    );
  }
  throw err;
}

async function forRow<T>(subject: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    return rowFailure(subject, err);
  }
}

async function link(a: Applying, kind: LinkKind, sourceId: string, batonId: number) {
  a.made.set(linkKey(kind, sourceId), batonId);
  await saveLink(
    a.d.tx,
    { source: a.snapshot.source, account: a.snapshot.account, kind, sourceId, batonId },
    a.importId,
    a.now,
  );
}

/**
 * applyImport applies a stored plan once: 404 for none, 409 when it was applied already. It
 * answers the plan with the Baton ids it made and the alert endpoints (with their keys, this once).
 */
export async function applyImport(deps: ApplyDeps, actor: User, id: number): Promise<ImportPlan> {
  const outcome = await deps.database.db.transaction(async (tx) => {
    const stored = await lockImport(tx, deps.cipher, id);
    if (!stored) throw notFound(IMPORT_MESSAGES.notFound);
    if (stored.row.status === 'applied') throw conflict(IMPORT_MESSAGES.alreadyApplied);
    await lockAccount(tx, stored.row.source, stored.row.account);
    const now = deps.clock.now();
    const d: InTx = { ...deps, database: { ...deps.database, db: tx }, tx };
    const { snapshot } = stored;
    const state = await loadBatonState(tx, deps.cipher, deps.config.companyDomain, snapshot, now);
    const people = matchPeople(snapshot, state);
    const a: Applying = {
      d,
      actor,
      snapshot,
      state,
      importId: id,
      now,
      holders: holdersOf(people, state),
      made: new Map(),
      endpoints: [],
      leftOut: new Set(),
    };
    await applyPeople(a, people, deps.baseUrl);
    for (const schedule of snapshot.schedules) await applySchedule(a, schedule);
    for (const schedule of snapshot.schedules) await applyOverrides(a, schedule);
    for (const policy of snapshot.policies) await applyPolicy(a, policy);
    for (const integration of snapshot.integrations) await applyIntegration(a, integration);
    const plan = appliedPlan(buildPlan(snapshot, state), a);
    await recordAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'import.applied',
      targetType: 'import',
      targetId: id,
      details: { source: snapshot.source, ...plan.summary },
      at: now,
    });
    // The keys are answered this once; the stored plan keeps their last four characters.
    const kept = {
      ...plan,
      endpoints: plan.endpoints.map((e) => ({ ...e, key: `…${e.key.slice(-4)}` })),
    };
    const row = await markApplied(tx, deps.cipher, id, kept, now);
    return { row, plan };
  });
  return planOf(outcome.row, outcome.plan);
}

/** appliedPlan is the plan as applied: the Baton ids made and the endpoints. */
function appliedPlan(plan: PlanBody, a: Applying): PlanBody {
  const changes = plan.changes.map((c) => ({
    ...c,
    batonId: a.made.get(linkKey(c.kind, c.sourceId)) ?? c.batonId,
  }));
  return { ...plan, changes, endpoints: a.endpoints };
}

/**
 * applyPeople links whom the plan matched, and invites whom it invites: each gets the invitation
 * email, and their account is made from it at once (as their first sign-in would make it), so they
 * hold their turns from this apply on rather than from an import after they accept.
 */
async function applyPeople(a: Applying, people: ImportPerson[], baseUrl: string) {
  const source = new Map(a.snapshot.people.map((p) => [p.sourceId, p]));
  for (const person of people) {
    const subject = `Person “${person.name}” (${person.sourceId})`;
    if (person.action === 'match' && person.userId !== null) {
      await link(a, 'person', person.sourceId, person.userId);
    }
    if (person.action !== 'invite' || !person.email) continue;
    const email = person.email;
    const from = source.get(person.sourceId);
    await forRow(subject, async () => {
      const deps = { db: a.d.tx, cipher: a.d.cipher, clock: a.d.clock, baseUrl };
      const invitation = await createInvitation(deps, a.actor, {
        email,
        name: person.name,
        role: from?.role ?? 'member',
      });
      const userId = await acceptImportedInvitation(deps, invitation, {
        phone: from?.phone ?? null,
        timezone: from?.timeZone && isTimeZone(from.timeZone) ? from.timeZone : undefined,
      });
      a.holders.set(person.sourceId, userId);
      await link(a, 'person', person.sourceId, userId);
    });
  }
}

/** applySchedule creates or updates the rotation a schedule becomes. */
async function applySchedule(a: Applying, schedule: SourceSchedule) {
  const subject = scheduleSubject(schedule);
  await forRow(subject, async () => {
    const desired = desiredRotation(schedule, a.snapshot, a.holders, a.now);
    const id = a.state.links.get(linkKey('rotation', schedule.sourceId));
    const held = id === undefined ? undefined : a.state.rotations.get(id);
    let rotationId: number;
    if (!held) rotationId = await createRotationOf(a, desired);
    else {
      rotationId = held.id;
      const differences = rotationDifferences(desired, held);
      if (differences.length > 0) await updateRotationOf(a, desired, held.id, held.type);
    }
    await link(a, 'rotation', schedule.sourceId, rotationId);
  });
}

async function createRotationOf(a: Applying, desired: DesiredRotation): Promise<number> {
  const input = CreateRotationInputSchema.parse({
    name: desired.name,
    description: desired.description,
    type: desired.type,
    timeZone: desired.timeZone,
    ...(desired.type === 'fixed' ? { layers: desired.layers } : {}),
  });
  const rotation = await createRotation(a.d, a.actor, input);
  if (desired.type === 'scheduled') await placeEntries(a, rotation.id, desired.entries, []);
  return rotation.id;
}

async function updateRotationOf(
  a: Applying,
  desired: DesiredRotation,
  id: number,
  heldType: 'fixed' | 'scheduled',
) {
  if (heldType !== desired.type) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Baton made it a ${heldType} rotation and the source's pattern now needs a ${desired.type} one: delete the rotation in Baton and import again`,
    );
  }
  const change = UpdateRotationInputSchema.parse({
    name: desired.name,
    description: desired.description,
    timeZone: desired.timeZone,
    ...(desired.type === 'fixed' ? { layers: desired.layers } : {}),
  });
  await updateRotation(a.d, a.actor, id, change);
  if (desired.type === 'scheduled') {
    const held = a.state.rotations.get(id)?.entries ?? [];
    await placeEntries(a, id, desired.entries, held);
  }
}

const sameEntry = (x: PlannedEntry, y: PlannedEntry) =>
  x.userId === y.userId &&
  x.start.getTime() === y.start.getTime() &&
  x.end.getTime() === y.end.getTime();

/** placeEntries makes a scheduled rotation's entries the wanted ones: gone ones out, new ones in. */
async function placeEntries(
  a: Applying,
  rotationId: number,
  wanted: readonly PlannedEntry[],
  held: readonly PlannedEntry[],
) {
  for (const entry of held) {
    if (entry.id !== undefined && !wanted.some((w) => sameEntry(w, entry))) {
      await deleteScheduleEntry(a.d, a.actor, entry.id);
    }
  }
  const members = new Set(
    (await listMembersWithUsers(a.d.tx, [rotationId])).map((m) => m.member.userId),
  );
  for (const entry of wanted) {
    if (held.some((h) => sameEntry(h, entry))) continue;
    if (!members.has(entry.userId)) {
      await addMember(a.d, a.actor, rotationId, entry.userId);
      members.add(entry.userId);
    }
    const input = ScheduleEntryInputSchema.parse({
      userId: entry.userId,
      startTime: entry.start.toISOString(),
      endTime: entry.end.toISOString(),
    });
    await addScheduleEntry(a.d, a.actor, rotationId, input);
  }
  // The baton goes to whoever the entries name now, as new layers give it (not at the engine's
  // next tick): the import is in force, and verified, from the moment it is applied.
  const row = await lockRotationRow(a.d.tx, rotationId);
  if (row && !row.suspended) await followWindows(a.d.tx, a.d, row, a.now);
}

/**
 * applyOverrides makes a layered schedule's overrides planned cover: each piece of the override
 * over one person's projected shift is that person covered by the override's person. What is
 * already linked, already over, on nobody's shift or of someone Baton lacks is left, and said so.
 */
async function applyOverrides(a: Applying, schedule: SourceSchedule) {
  if (!schedule.layers) return;
  const rotationId = a.made.get(linkKey('rotation', schedule.sourceId));
  if (rotationId === undefined) return;
  const names = personNames(a.snapshot);
  // The rotation's members, read once for all its overrides (a cover may add one).
  let members: Set<number> | null = null;
  for (const o of schedule.overrides) {
    const sourceId = coverSourceId(schedule.sourceId, o);
    const subject = overrideSubject(schedule, o, names.get(o.personSourceId) ?? o.personSourceId);
    if (a.state.links.has(linkKey('cover', sourceId)) || o.end <= a.now) continue;
    const covering = a.holders.get(o.personSourceId);
    // Said in the plan (OVERRIDE_LEFT_OUT).
    if (covering === undefined) continue;
    await forRow(subject, async () => {
      members ??= new Set(
        (await listMembersWithUsers(a.d.tx, [rotationId])).map((m) => m.member.userId),
      );
      if (!members.has(covering)) {
        await addMember(a.d, a.actor, rotationId, covering);
        members.add(covering);
      }
      const from = later(o.start, a.now);
      const shifts = await projectedShifts(a.d, a.d.tx, rotationId, from, o.end);
      let first: number | null = null;
      for (const shift of shifts) {
        if (shift.userId === null || shift.userId === covering) continue;
        const start = later(shift.start, from);
        const end = earlier(shift.end, o.end);
        if (end <= start) continue;
        const input = CoverPlanInputSchema.parse({
          requesterId: shift.userId,
          coveringUserId: covering,
          startTime: start.toISOString(),
          endTime: end.toISOString(),
        });
        const cover = await planCover(a.d, a.actor, rotationId, input);
        first ??= cover.id;
      }
      // An override whose person already holds every shift it spans changes nothing in Baton: it
      // is linked to its rotation, so importing again sees it done rather than new.
      await link(a, 'cover', sourceId, first ?? rotationId);
    });
  }
}

const later = (x: Date, y: Date) => new Date(Math.max(x.getTime(), y.getTime()));
const earlier = (x: Date, y: Date) => new Date(Math.min(x.getTime(), y.getTime()));

/** applyPolicy creates or updates the escalation policy a source policy becomes. */
async function applyPolicy(a: Applying, policy: SourceSnapshot['policies'][number]) {
  const subject = policySubject(policy);
  await forRow(subject, async () => {
    const desired = desiredPolicy(
      policy,
      a.snapshot,
      a.holders,
      (s) => a.made.get(linkKey('rotation', s)) ?? null,
    );
    if (isLeftOut(desired)) {
      a.leftOut.add(policy.sourceId);
      return;
    }
    const steps = desired.steps.filter((s) => s.targets.length > 0);
    const input = EscalationPolicyInputSchema.parse({
      name: desired.name,
      repeat: desired.repeat,
      steps: steps.map((s) => ({ delayMinutes: s.delayMinutes, targets: s.targets })),
    });
    const id = a.state.links.get(linkKey('policy', policy.sourceId));
    const made =
      id === undefined
        ? (await createPolicy(a.d, a.actor, input)).id
        : (await updatePolicy(a.d, a.actor, id, input)).id;
    await link(a, 'policy', policy.sourceId, made);
  });
}

/** applyIntegration creates or updates the integration an alert source becomes. */
async function applyIntegration(a: Applying, integration: SourceSnapshot['integrations'][number]) {
  const subject = integrationSubject(integration);
  if (integrationLeftOut(integration, a.leftOut)) return;
  await forRow(subject, async () => {
    const policyId = integration.policySourceId
      ? a.made.get(linkKey('policy', integration.policySourceId))
      : undefined;
    const rotationId = integration.scheduleSourceId
      ? a.made.get(linkKey('rotation', integration.scheduleSourceId))
      : undefined;
    if (policyId === undefined && rotationId === undefined) {
      throw new ImportRowError(
        subject,
        'escalates by neither a policy nor a schedule of the import',
      );
    }
    const where = policyId !== undefined ? { escalationPolicyId: policyId } : { rotationId };
    const id = a.state.links.get(linkKey('integration', integration.sourceId));
    if (id !== undefined) {
      const held = a.state.integrations.get(id);
      if (held && (held.name !== integration.name || held.source !== integration.source)) {
        await updateIntegration(a.d, a.actor, id, {
          name: integration.name,
          source: integration.source,
        });
      }
      await link(a, 'integration', integration.sourceId, id);
      return;
    }
    const made = await createIntegration(a.d, a.actor, {
      name: integration.name,
      source: integration.source,
      ...where,
    });
    a.endpoints.push(
      endpointOf(made, `${IMPORT_SOURCE_LABELS[a.snapshot.source]} ${integration.name}`),
    );
    await link(a, 'integration', integration.sourceId, made.id);
  });
}

/** endpointOf is where monitoring sends what the integration takes in, and its key. */
function endpointOf(made: IntegrationWithKey, replaces: string): ImportEndpoint {
  const { endpoints } = made;
  const url =
    made.source === 'email'
      ? endpoints.emailDomain
        ? `${made.key}@${endpoints.emailDomain}`
        : endpoints.generic
      : endpoints[made.source];
  return { integrationId: made.id, name: made.name, replaces, url, key: made.key };
}
