import type {
  EscalationStep,
  EscalationTarget,
} from '../../../shared/contracts/escalation-policies';
import type {
  ImportChange,
  ImportNote,
  ImportPerson,
  ImportPlan,
} from '../../../shared/contracts/imports';
import { emailDomainOf } from '../../../shared/contracts/invitations';
import type { RotationLayer } from '../../../shared/contracts/rotations';
import { describePattern } from '../../../shared/domain/layers';
import { storedLayersOf } from '../../../shared/domain/rotation-layers';
import { merge } from './snapshot-rendering';
import type {
  SourceEscalationPolicy,
  SourceIntegration,
  SourceSchedule,
  SourceShift,
  SourceSnapshot,
} from './source-snapshot';

/**
 * The import plan (issue 34, decision 268), pure: a snapshot and what Baton holds now in, what an
 * apply would do out. Apply calls the same functions with the state it reads in its transaction,
 * so what it writes is what the plan said unless Baton changed in between.
 */

/** What the plan and the apply write for one source object, and the kind of link it keeps. */
export type LinkKind = 'person' | 'rotation' | 'policy' | 'integration' | 'cover';
export const linkKey = (kind: LinkKind, sourceId: string) => `${kind}:${sourceId}`;

/** A Baton person an import may match by email. */
export interface BatonPerson {
  id: number;
  name: string;
  email: string;
  /** on-call or manager: may be named in a layer or an entry */
  canHold: boolean;
}

/** An imported rotation as Baton holds it now. */
export interface BatonRotation {
  id: number;
  name: string;
  type: 'fixed' | 'scheduled';
  timeZone: string;
  /** its layers (fixed); null for a scheduled one */
  layers: RotationLayer[] | null;
  /** a scheduled rotation's entries ending after now */
  entries: PlannedEntry[];
}

export interface BatonPolicy {
  id: number;
  name: string;
  repeat: number;
  steps: EscalationStep[];
}

/** What the plan compares the snapshot with: Baton now, and what earlier imports made. */
export interface BatonState {
  now: Date;
  /** invitations must be from this domain (COMPANY_DOMAIN) */
  companyDomain: string;
  people: BatonPerson[];
  /** lower-cased addresses with a pending invitation */
  pendingInvitations: ReadonlySet<string>;
  /** linkKey(kind, sourceId) → Baton id, for objects that still exist */
  links: ReadonlyMap<string, number>;
  rotations: ReadonlyMap<number, BatonRotation>;
  policies: ReadonlyMap<number, BatonPolicy>;
  integrations: ReadonlyMap<number, { id: number; name: string; source: string }>;
}

/** One stretch of a scheduled rotation: an entry. */
export interface PlannedEntry {
  /** the entry's id, for one Baton holds */
  id?: number;
  userId: number;
  start: Date;
  end: Date;
}

/** What a schedule becomes: a layered rotation, or a scheduled one of the rendered shifts. */
export type DesiredRotation = {
  name: string;
  description: string | null;
  timeZone: string;
  notes: ImportNote[];
} & ({ type: 'fixed'; layers: RotationLayer[] } | { type: 'scheduled'; entries: PlannedEntry[] });

/** A row the import cannot make: its message names the row ("Schedule “Platform” (P1): …"). */
export class ImportRowError extends Error {
  constructor(subject: string, problem: string) {
    super(`${subject}: ${problem}`);
    this.name = 'ImportRowError';
  }
}

export const scheduleSubject = (s: SourceSchedule) => `Schedule “${s.name}” (${s.sourceId})`;
export const policySubject = (p: SourceEscalationPolicy) =>
  `Escalation policy “${p.name}” (${p.sourceId})`;
export const integrationSubject = (i: SourceIntegration) =>
  `Integration “${i.name}” (${i.sourceId})`;

/** The plan as stored and answered, without what the database gives it (id, status, times). */
export type PlanBody = Omit<ImportPlan, 'id' | 'status' | 'createdAt' | 'appliedAt'>;

/** matchPeople says what becomes of each person: matched by email, invited, or left out. */
export function matchPeople(snapshot: SourceSnapshot, state: BatonState): ImportPerson[] {
  const byEmail = new Map(state.people.map((p) => [p.email.toLowerCase(), p]));
  const domain = state.companyDomain.toLowerCase();
  return snapshot.people.map((p) => {
    const base = { sourceId: p.sourceId, name: p.name, email: p.email };
    if (!p.email) {
      return { ...base, action: 'skip', userId: null, reason: 'No email address to match' };
    }
    const email = p.email.trim().toLowerCase();
    const found = byEmail.get(email);
    if (found) {
      return {
        ...base,
        action: 'match',
        userId: found.id,
        reason: found.canHold
          ? null
          : `${found.name} cannot hold the baton (not on-call or manager): left out of rotations`,
      };
    }
    if (emailDomainOf(email) !== domain) {
      return {
        ...base,
        action: 'skip',
        userId: null,
        reason: `Email is outside the ${domain} domain: Baton invites only addresses of that domain`,
      };
    }
    if (state.pendingInvitations.has(email)) {
      return {
        ...base,
        action: 'skip',
        userId: null,
        reason: 'Invited already: they join the rotations at the next import after accepting',
      };
    }
    return {
      ...base,
      action: 'invite',
      userId: null,
      reason: 'No Baton person has this email: invited, and on call in Baton from the apply',
    };
  }) as ImportPerson[];
}

/** holdersOf maps each source person who may hold shifts in Baton to their user id. */
export function holdersOf(people: readonly ImportPerson[], state: BatonState): Map<string, number> {
  const canHold = new Set(state.people.filter((p) => p.canHold).map((p) => p.id));
  const out = new Map<string, number>();
  for (const p of people) {
    if (p.action === 'match' && p.userId !== null && canHold.has(p.userId)) {
      out.set(p.sourceId, p.userId);
    }
  }
  return out;
}

/**
 * plannedHolders is holdersOf with the people the plan invites: apply makes their accounts before
 * the rotations, so they hold their turns. Until then each stands for itself by a negative id.
 */
export function plannedHolders(
  people: readonly ImportPerson[],
  state: BatonState,
): Map<string, number> {
  const out = holdersOf(people, state);
  people.forEach((p, i) => {
    if (p.action === 'invite') out.set(p.sourceId, -(i + 1));
  });
  return out;
}

/** personNames maps the snapshot's people's source ids to their names. */
export const personNames = (snapshot: SourceSnapshot) =>
  new Map(snapshot.people.map((p) => [p.sourceId, p.name]));

/**
 * desiredRotation says what a schedule becomes: its layers with the people Baton has (a layer
 * left with nobody is dropped), or, when the source's pattern has no layers in Baton's terms or
 * no layer keeps anyone, a scheduled rotation whose entries are the rendered shifts from now on.
 * Throws ImportRowError for a person the snapshot does not list.
 */
export function desiredRotation(
  schedule: SourceSchedule,
  snapshot: SourceSnapshot,
  holders: ReadonlyMap<string, number>,
  now: Date,
): DesiredRotation {
  const subject = scheduleSubject(schedule);
  const names = personNames(snapshot);
  const notes: ImportNote[] = [];
  const known = (id: string) => {
    if (!names.has(id))
      throw new ImportRowError(subject, `names a person the source did not list (${id})`);
  };
  const base = {
    name: schedule.name,
    description: schedule.description ?? null,
    timeZone: schedule.timeZone,
  };
  if (schedule.layers) {
    const layers: RotationLayer[] = [];
    for (const layer of schedule.layers) {
      for (const id of layer.memberSourceIds) known(id);
      const missing = layer.memberSourceIds.filter((id) => !holders.has(id));
      if (missing.length > 0) {
        const who = [...new Set(missing)].map((id) => names.get(id)).join(', ');
        notes.push({
          level: 'warning',
          subject: `${subject} layer “${layer.name}”`,
          message: `Not in Baton yet, so left out of the turns until a later import: ${who}`,
        });
      }
      const memberIds = layer.memberSourceIds.flatMap((id) => holders.get(id) ?? []);
      if (memberIds.length === 0) continue;
      const [stored] = storedLayersOf(
        [
          {
            ...layer,
            memberIds,
            activeWindows: layer.activeWindows.map((w) => ({ ...w, days: [...w.days] })),
            startsAt: layer.startsAt.toISOString(),
          },
        ],
        null,
        now,
      );
      layers.push(stored as RotationLayer);
    }
    if (layers.length > 0) return { ...base, type: 'fixed', layers, notes };
    notes.push({
      level: 'warning',
      subject,
      message:
        'No layer has anyone Baton has yet: made a scheduled rotation of the rendered shifts',
    });
  }
  for (const s of schedule.rendered) known(s.personSourceId);
  const entries = entriesOf(schedule.rendered, holders, now);
  return { ...base, type: 'scheduled', entries, notes };
}

/** entriesOf turns rendered shifts into entries of people Baton has, from `now` on. */
export function entriesOf(
  rendered: readonly SourceShift[],
  holders: ReadonlyMap<string, number>,
  now: Date,
): PlannedEntry[] {
  return merge(rendered)
    .filter((s) => s.end > now && holders.has(s.personSourceId))
    .map((s) => ({
      userId: holders.get(s.personSourceId) as number,
      start: new Date(Math.max(s.start.getTime(), now.getTime())),
      end: s.end,
    }));
}

/** What a policy becomes in Baton's terms; targets the import has not made yet are null. */
export interface DesiredPolicy {
  name: string;
  repeat: number;
  steps: { delayMinutes: number; targets: (EscalationTarget | { pending: string })[] }[];
  notes: ImportNote[];
}

/**
 * desiredPolicy turns a source policy into Baton's steps. A source's delay is the wait before a
 * step; Baton's is the wait after it, so each Baton step waits as long as the source waited
 * before the next one; the last waits as long as the one before it did. Schedules become their
 * rotation's holder, people the user. A target Baton cannot name is left out, and said so.
 */
export function desiredPolicy(
  policy: SourceEscalationPolicy,
  snapshot: SourceSnapshot,
  holders: ReadonlyMap<string, number>,
  rotationIdOf: (scheduleSourceId: string) => number | null,
): DesiredPolicy {
  const subject = policySubject(policy);
  const names = personNames(snapshot);
  const schedules = new Set(snapshot.schedules.map((s) => s.sourceId));
  const notes: ImportNote[] = [];
  const first = policy.steps[0];
  if (first && first.delayMinutes > 0) {
    notes.push({
      level: 'warning',
      subject,
      message: `Baton notifies the first step when the incident opens; the source waited ${first.delayMinutes} minutes first`,
    });
  }
  const steps = policy.steps.map((step, i) => {
    const next = policy.steps[i + 1]?.delayMinutes ?? policy.loopDelayMinutes ?? step.delayMinutes;
    const targets = step.targets.flatMap((t): (EscalationTarget | { pending: string })[] => {
      if (t.kind === 'schedule') {
        if (!schedules.has(t.sourceId)) {
          throw new ImportRowError(
            subject,
            `names a schedule the source did not list (${t.sourceId})`,
          );
        }
        const id = rotationIdOf(t.sourceId);
        return [id === null ? { pending: t.sourceId } : { type: 'rotation-holder', id }];
      }
      if (!names.has(t.sourceId)) {
        throw new ImportRowError(subject, `names a person the source did not list (${t.sourceId})`);
      }
      const userId = holders.get(t.sourceId);
      if (userId === undefined) {
        notes.push({
          level: 'warning',
          subject: `${subject} step ${i + 1}`,
          message: `${names.get(t.sourceId)} is not in Baton yet: left out of the step until a later import`,
        });
        return [];
      }
      return [{ type: 'user', id: userId }];
    });
    return { delayMinutes: Math.max(1, next), targets };
  });
  return { name: policy.name, repeat: policy.repeat, steps, notes };
}

/** canonical writes a value as JSON with its keys sorted: jsonb keeps keys in its own order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** POLICY_LEFT_OUT: a policy none of whose steps names anyone Baton has yet. */
export const POLICY_LEFT_OUT =
  'No step names anyone Baton has yet: the policy is left out until a later import';
/** INTEGRATION_LEFT_OUT: an integration whose policy is left out and that has no schedule. */
export const INTEGRATION_LEFT_OUT =
  'Its escalation policy is left out (no step names anyone Baton has yet): the integration waits for a later import';

/** isLeftOut says whether a desired policy has no step naming anyone. */
export const isLeftOut = (desired: DesiredPolicy) =>
  desired.steps.every((s) => s.targets.length === 0);

/** samePolicy says whether a desired policy is what Baton holds (nothing pending in it). */
function samePolicy(desired: DesiredPolicy, held: BatonPolicy): boolean {
  if (desired.steps.some((s) => s.targets.some((t) => 'pending' in t))) return false;
  const shape = (steps: DesiredPolicy['steps'] | EscalationStep[]) =>
    canonical(steps.map((s) => ({ d: s.delayMinutes, t: s.targets })));
  return (
    desired.name === held.name &&
    desired.repeat === held.repeat &&
    shape(desired.steps.filter((s) => s.targets.length > 0)) === shape(held.steps)
  );
}

/** rotationDifferences lists what differs between a desired rotation and Baton's, in words. */
export function rotationDifferences(desired: DesiredRotation, held: BatonRotation): string[] {
  const out: string[] = [];
  if (desired.name !== held.name) out.push(`name: “${held.name}” → “${desired.name}”`);
  if (desired.timeZone !== held.timeZone)
    out.push(`time zone: ${held.timeZone} → ${desired.timeZone}`);
  if (desired.type !== held.type) out.push(`kind: ${held.type} → ${desired.type}`);
  else if (desired.type === 'fixed' && canonical(desired.layers) !== canonical(held.layers)) {
    out.push('layers changed');
  } else if (desired.type === 'scheduled' && !sameEntries(desired.entries, held.entries)) {
    out.push('schedule entries changed');
  }
  return out;
}

const entryKey = (e: PlannedEntry) => `${e.userId}@${e.start.getTime()}-${e.end.getTime()}`;

function sameEntries(a: readonly PlannedEntry[], b: readonly PlannedEntry[]): boolean {
  const keys = new Set(b.map(entryKey));
  return a.length === b.length && a.every((e) => keys.has(entryKey(e)));
}

/** An override whose person Baton does not have yet. */
export const OVERRIDE_LEFT_OUT = 'Not in Baton yet: the override is left out';

export const overrideSubject = (schedule: SourceSchedule, o: SourceShift, who: string) =>
  `${scheduleSubject(schedule)} override of ${who} from ${o.start.toISOString()}`;

/** coverSourceId names an override: the schedule, its window and its person. */
export const coverSourceId = (scheduleSourceId: string, o: SourceShift) =>
  `${scheduleSourceId}/${o.start.toISOString()}/${o.end.toISOString()}/${o.personSourceId}`;

function rotationDetails(desired: DesiredRotation): string[] {
  if (desired.type === 'fixed') {
    return [
      `${desired.layers.length} layer${desired.layers.length === 1 ? '' : 's'}: ${describePattern(desired.layers)}`,
      `Time zone ${desired.timeZone}`,
    ];
  }
  return [`Scheduled rotation: ${desired.entries.length} entries from the source's rendering`];
}

/** change makes one row of the plan from what the link points at. */
function change(
  kind: ImportChange['kind'],
  sourceId: string,
  name: string,
  batonId: number | null,
  differences: string[] | null,
  details: string[],
): ImportChange {
  const action =
    batonId === null ? 'create' : differences && differences.length > 0 ? 'update' : 'unchanged';
  return { kind, action, sourceId, name, batonId, details: [...(differences ?? []), ...details] };
}

/**
 * buildPlan is what importing the snapshot would do to Baton as `state` holds it: each person
 * matched, invited or left out; each schedule, policy, integration and override created, updated
 * or unchanged; the snapshot's notes and the plan's own. A row that cannot be made is a warning
 * here (the apply refuses it, naming the row).
 */
export function buildPlan(snapshot: SourceSnapshot, state: BatonState): PlanBody {
  const people = matchPeople(snapshot, state);
  const holders = plannedHolders(people, state);
  const notes: ImportNote[] = [...snapshot.notes];
  const changes: ImportChange[] = [];
  const linked = (kind: LinkKind, id: string) => state.links.get(linkKey(kind, id)) ?? null;
  const refused = (err: unknown) => {
    if (!(err instanceof ImportRowError)) throw err;
    notes.push({ level: 'warning', subject: 'Cannot be applied', message: err.message });
  };
  for (const schedule of snapshot.schedules) {
    try {
      const desired = desiredRotation(schedule, snapshot, holders, state.now);
      notes.push(...desired.notes);
      const id = linked('rotation', schedule.sourceId);
      const held = id === null ? undefined : state.rotations.get(id);
      changes.push(
        change(
          'rotation',
          schedule.sourceId,
          schedule.name,
          held ? id : null,
          held ? rotationDifferences(desired, held) : null,
          rotationDetails(desired),
        ),
      );
      if (schedule.layers) {
        for (const o of schedule.overrides) {
          const who = personNames(snapshot).get(o.personSourceId) ?? o.personSourceId;
          const coverId = linked('cover', coverSourceId(schedule.sourceId, o));
          if (coverId === null && !holders.has(o.personSourceId)) {
            notes.push({
              level: 'warning',
              subject: overrideSubject(schedule, o, who),
              message: OVERRIDE_LEFT_OUT,
            });
            continue;
          }
          changes.push(
            change(
              'cover',
              coverSourceId(schedule.sourceId, o),
              `${schedule.name}: ${who}`,
              coverId,
              null,
              [`${o.start.toISOString()} – ${o.end.toISOString()}`],
            ),
          );
        }
      }
    } catch (err) {
      refused(err);
    }
  }
  const leftOut = new Set<string>();
  for (const policy of snapshot.policies) {
    try {
      const desired = desiredPolicy(policy, snapshot, holders, (s) => linked('rotation', s));
      notes.push(...desired.notes);
      if (isLeftOut(desired)) {
        notes.push({ level: 'warning', subject: policySubject(policy), message: POLICY_LEFT_OUT });
        leftOut.add(policy.sourceId);
        continue;
      }
      const id = linked('policy', policy.sourceId);
      const held = id === null ? undefined : state.policies.get(id);
      const details = [`${desired.steps.length} steps, repeated ${desired.repeat} times`];
      changes.push(
        change(
          'policy',
          policy.sourceId,
          policy.name,
          held ? id : null,
          held ? (samePolicy(desired, held) ? [] : ['steps, repeat or name changed']) : null,
          details,
        ),
      );
    } catch (err) {
      refused(err);
    }
  }
  for (const integration of snapshot.integrations) {
    if (integrationLeftOut(integration, leftOut)) {
      notes.push({
        level: 'warning',
        subject: integrationSubject(integration),
        message: INTEGRATION_LEFT_OUT,
      });
      continue;
    }
    const id = linked('integration', integration.sourceId);
    const held = id === null ? undefined : state.integrations.get(id);
    const differences = held
      ? [
          ...(held.name === integration.name
            ? []
            : [`name: “${held.name}” → “${integration.name}”`]),
          ...(held.source === integration.source
            ? []
            : [`format: ${held.source} → ${integration.source}`]),
        ]
      : null;
    changes.push(
      change('integration', integration.sourceId, integration.name, held ? id : null, differences, [
        `${integration.source} alerts, ${targetInWords(integration, snapshot)}`,
      ]),
    );
  }
  return {
    source: snapshot.source,
    account: snapshot.account,
    window: { from: snapshot.window.from.toISOString(), to: snapshot.window.to.toISOString() },
    summary: summaryOf(people, changes, notes),
    people,
    changes,
    notes,
    endpoints: [],
  };
}

/** integrationLeftOut: its policy is left out and it names no schedule to fall back on. */
export const integrationLeftOut = (i: SourceIntegration, leftOutPolicies: ReadonlySet<string>) =>
  i.policySourceId !== null && leftOutPolicies.has(i.policySourceId) && !i.scheduleSourceId;

function targetInWords(integration: SourceIntegration, snapshot: SourceSnapshot): string {
  if (integration.policySourceId) {
    const p = snapshot.policies.find((x) => x.sourceId === integration.policySourceId);
    return `escalating by “${p?.name ?? integration.policySourceId}”`;
  }
  const s = snapshot.schedules.find((x) => x.sourceId === integration.scheduleSourceId);
  return `paging “${s?.name ?? integration.scheduleSourceId}”`;
}

/** summaryOf counts the plan's rows by what they do. */
export function summaryOf(
  people: readonly ImportPerson[],
  changes: readonly ImportChange[],
  notes: readonly ImportNote[],
): PlanBody['summary'] {
  const count = (a: ImportChange['action']) => changes.filter((c) => c.action === a).length;
  return {
    create: count('create'),
    update: count('update'),
    unchanged: count('unchanged'),
    invite: people.filter((p) => p.action === 'invite').length,
    warnings: notes.filter((n) => n.level === 'warning').length,
  };
}
