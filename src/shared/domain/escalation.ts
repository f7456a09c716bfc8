import type {
  ActiveWindow,
  EscalationPolicyValue,
  EscalationStep,
  EscalationTarget,
  EscalationTargetType,
} from '../contracts/escalation-policies';
import { PAGE_TIMINGS } from './paging';
import { wallTimeOf } from './shifts';

/**
 * Escalation (issue 16, decision 200): who a step of a policy notifies now, when the next step is
 * due, and the default policy every rotation starts with. Pure: the clock and the world (the
 * rotations' state, the people) come in, so the engine and the policy editor's preview answer
 * the same thing.
 */

const MINUTE = 60_000;
const MINUTES_PER_DAY = 24 * 60;
const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

// ---------------------------------------------------------------------------------------------
// Active hours

function minutesOf(hhmm: string): number {
  const [hour, minute] = hhmm.split(':').map(Number);
  return hour * 60 + minute;
}

/** How long a window lasts: an end at or before its start runs into the next day. */
function windowLength(window: ActiveWindow): number {
  const length = minutesOf(window.endTime) - minutesOf(window.startTime);
  return length > 0 ? length : length + MINUTES_PER_DAY;
}

/**
 * isWithinActiveHours tells whether `now` falls in one of the windows, read on the wall clock of
 * `timeZone` (so '22:00' stays 22:00 local across a daylight-saving change). No windows (null)
 * means every hour. A window belongs to the day it starts on: Friday 22:00–07:00 covers Saturday
 * 06:59 but not Friday 06:59.
 */
export function isWithinActiveHours(
  windows: readonly ActiveWindow[] | null,
  timeZone: string,
  now: Date,
): boolean {
  if (windows === null) return true;
  const wall = wallTimeOf(now, timeZone);
  const minuteOfWeek = wall.weekday * MINUTES_PER_DAY + wall.hour * 60 + wall.minute;
  return windows.some((window) =>
    window.daysOfWeek.some((day) => {
      const start = day * MINUTES_PER_DAY + minutesOf(window.startTime);
      // Minutes since this window opened, wrapping Saturday night into Sunday.
      const since = (minuteOfWeek - start + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
      return since < windowLength(window);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Who a step notifies

/** A rotation as escalation sees it now. */
export interface RotationState {
  id: number;
  suspended: boolean;
  /** IANA zone the rotation's hours are read in */
  timeZone: string;
  holderId: number | null;
  /** the next on call (see the glossary), or null */
  nextId: number | null;
  /** the previous holder while they are still backup after a handoff (decision 130), or null */
  backupId: number | null;
  /** every member, in rotation order */
  memberIds: readonly number[];
}

/** A person as escalation sees them now. */
export interface PersonState {
  id: number;
  deleted: boolean;
  /** at least one way to reach them (an email address, or a phone for SMS) */
  hasChannel: boolean;
}

export interface EscalationWorld {
  rotations: ReadonlyMap<number, RotationState>;
  people: ReadonlyMap<number, PersonState>;
  /** the zone of the incident's rotation: a step's active hours are read in it */
  timeZone: string;
  /** round robin: how many turns this step has given before (the step's counter) */
  turn: number;
}

/** Why a person is targeted, in the words the preview and the timeline show. */
export type TargetReason = 'holder' | 'next on call' | 'backup' | 'member' | 'named';

const REASON_OF: Record<EscalationTargetType, TargetReason> = {
  'rotation-holder': 'holder',
  'rotation-next': 'next on call',
  'rotation-backup': 'backup',
  'rotation-members': 'member',
  user: 'named',
};

export type SkipReason =
  | 'nobody to notify'
  | 'rotation suspended'
  | 'person deleted'
  | 'person without a channel'
  | 'outside the step hours';

export interface Recipient {
  userId: number;
  /** every target that reached this person, in the step's order ('holder', 'member') */
  reasons: TargetReason[];
}

/** A target (or a person it named) that reached nobody, and why. */
export interface SkippedTarget {
  target: EscalationTarget;
  reason: SkipReason;
  userId?: number;
}

export type StepResolution =
  | { kind: 'notify'; recipients: Recipient[]; skipped: SkippedTarget[] }
  | { kind: 'skip'; reason: SkipReason; skipped: SkippedTarget[] };

/** The people a target names right now, before checking that they can be reached. */
function peopleOf(
  target: EscalationTarget,
  world: EscalationWorld,
): { userIds: readonly number[] } | { skip: SkipReason } {
  if (target.type === 'user') return { userIds: [target.id] };
  const rotation = world.rotations.get(target.id);
  if (!rotation) return { skip: 'nobody to notify' };
  // Suspended rotations take no part in alerting (specification).
  if (rotation.suspended) return { skip: 'rotation suspended' };
  const named = {
    'rotation-holder': [rotation.holderId],
    'rotation-next': [rotation.nextId],
    'rotation-backup': [rotation.backupId],
    'rotation-members': rotation.memberIds,
  }[target.type].filter((userId): userId is number => userId !== null);
  return named.length > 0 ? { userIds: named } : { skip: 'nobody to notify' };
}

function unreachable(person: PersonState | undefined): SkipReason | null {
  if (!person || person.deleted) return 'person deleted';
  return person.hasChannel ? null : 'person without a channel';
}

/**
 * resolveStep answers whom a step notifies at `now`: each reachable person once, with every
 * reason they were targeted, and what was skipped and why; or a skip of the whole step when it
 * is outside its hours or reaches nobody (the engine records it and moves on at once). A round
 * robin step notifies one person: the `turn`-th of the eligible people, wrapping.
 */
export function resolveStep(
  step: EscalationStep,
  world: EscalationWorld,
  now: Date,
): StepResolution {
  if (!isWithinActiveHours(step.activeHours, world.timeZone, now)) {
    return { kind: 'skip', reason: 'outside the step hours', skipped: [] };
  }
  const byUser = new Map<number, Recipient>();
  const skipped: SkippedTarget[] = [];
  for (const target of step.targets) {
    const named = peopleOf(target, world);
    if ('skip' in named) {
      skipped.push({ target, reason: named.skip });
      continue;
    }
    for (const userId of named.userIds) {
      const reason = unreachable(world.people.get(userId));
      if (reason) {
        skipped.push({ target, reason, userId });
        continue;
      }
      const recipient = byUser.get(userId) ?? { userId, reasons: [] };
      if (!recipient.reasons.includes(REASON_OF[target.type])) {
        recipient.reasons.push(REASON_OF[target.type]);
      }
      byUser.set(userId, recipient);
    }
  }
  const eligible = [...byUser.values()];
  if (eligible.length === 0) return { kind: 'skip', reason: stepSkipReason(skipped), skipped };
  if (step.assignment === 'round-robin') {
    const turn = ((world.turn % eligible.length) + eligible.length) % eligible.length;
    return { kind: 'notify', recipients: [eligible[turn]], skipped };
  }
  return { kind: 'notify', recipients: eligible, skipped };
}

/** A whole step's skip reason: the one reason all its targets share, else 'nobody to notify'. */
function stepSkipReason(skipped: readonly SkippedTarget[]): SkipReason {
  const reasons = new Set(skipped.map((s) => s.reason));
  return reasons.size === 1 ? [...reasons][0] : 'nobody to notify';
}

// ---------------------------------------------------------------------------------------------
// Where an incident is on its policy

/** Where an incident is on its copy of the policy. */
export interface EscalationProgress {
  /** zero-based index of the step notified last */
  stepIndex: number;
  /** zero-based: 0 is the first run, `repeat` the last */
  loop: number;
  /** when that step was reached (its notifications, or its skip) */
  stepStartedAt: Date;
  /** the step reached nobody: the next one is due at once rather than after the delay */
  stepSkipped: boolean;
}

export type PolicySnapshot = Pick<EscalationPolicyValue, 'repeat' | 'steps'>;

/** What comes next: a step (maybe of the next loop), or the end of the policy. */
export type NextEscalation =
  | { kind: 'step'; stepIndex: number; loop: number; at: Date; due: boolean }
  | { kind: 'exhausted'; at: Date; due: boolean };

/** startEscalation returns the progress of an incident raised at `now`: at its first step. */
export function startEscalation(now: Date): EscalationProgress {
  return { stepIndex: 0, loop: 0, stepStartedAt: now, stepSkipped: false };
}

/**
 * nextEscalation answers what follows the current step and when: the next step after the current
 * step's delay (at once when it was skipped), then the first step again while loops remain, then
 * the end of the policy. `due` tells whether it is due at `now`.
 */
export function nextEscalation(
  policy: PolicySnapshot,
  progress: EscalationProgress,
  now: Date,
): NextEscalation {
  const step = policy.steps[progress.stepIndex];
  const waited = progress.stepSkipped ? 0 : step.delayMinutes * MINUTE;
  const at = new Date(progress.stepStartedAt.getTime() + waited);
  const due = now.getTime() >= at.getTime();
  if (progress.stepIndex + 1 < policy.steps.length) {
    return { kind: 'step', stepIndex: progress.stepIndex + 1, loop: progress.loop, at, due };
  }
  if (progress.loop < policy.repeat) {
    return { kind: 'step', stepIndex: 0, loop: progress.loop + 1, at, due };
  }
  return { kind: 'exhausted', at, due };
}

/**
 * reachStep returns the progress once a step is taken at `now`. The step starts at `now`, not
 * when it fell due: after downtime the engine takes one step and the next waits its full delay,
 * so nobody gets a burst of stale reminders.
 */
export function reachStep(
  next: { stepIndex: number; loop: number },
  now: Date,
  skipped = false,
): EscalationProgress {
  return { stepIndex: next.stepIndex, loop: next.loop, stepStartedAt: now, stepSkipped: skipped };
}

export const ESCALATION_MESSAGES = {
  noSuchStep: (count: number) =>
    count === 1 ? 'This policy has only step 1' : `Choose a step from 1 to ${count}`,
  lastStep: 'This is the last step of the policy; choose a step to escalate to',
} as const;

/**
 * escalateByHand answers the progress after "escalate to step N" (`toStep`, zero-based) or, with
 * no step named, to the next one (the first step of the next loop after the last). The loop stays
 * where it is when a step is named; the step starts at `now`. A refusal says why in words.
 */
export function escalateByHand(
  policy: PolicySnapshot,
  progress: EscalationProgress,
  now: Date,
  toStep?: number,
): { ok: true; progress: EscalationProgress } | { ok: false; message: string } {
  if (toStep !== undefined) {
    if (!Number.isInteger(toStep) || toStep < 0 || toStep >= policy.steps.length) {
      return { ok: false, message: ESCALATION_MESSAGES.noSuchStep(policy.steps.length) };
    }
    return { ok: true, progress: reachStep({ stepIndex: toStep, loop: progress.loop }, now) };
  }
  const next = nextEscalation(policy, progress, now);
  if (next.kind === 'exhausted') return { ok: false, message: ESCALATION_MESSAGES.lastStep };
  return { ok: true, progress: reachStep(next, now) };
}

/**
 * isReminderStep tells whether a step only targets again what the step before it targeted (the
 * default policy's second step: the holder, again): the timeline and the messages call it a
 * reminder rather than an escalation.
 */
export function isReminderStep(policy: PolicySnapshot, stepIndex: number): boolean {
  if (stepIndex === 0) return false;
  const key = (t: EscalationTarget) => `${t.type}:${t.id}`;
  const before = new Set(policy.steps[stepIndex - 1].targets.map(key));
  return policy.steps[stepIndex].targets.every((t) => before.has(key(t)));
}

// ---------------------------------------------------------------------------------------------
// The default policy

/**
 * defaultEscalationPolicy is the documented paging flow as a policy, created with each rotation:
 * the holder (with a copy to the backup, decision 130) at once; a reminder to the holder alone when
 * PAGE_TIMINGS says (15 minutes); the next member when it says to escalate (30 minutes), who is
 * given as long as the holder was before the policy runs out. Repeat 0: today's flow escalates
 * once.
 */
export function defaultEscalationPolicy(rotation: {
  id: number;
  name: string;
}): EscalationPolicyValue {
  const reminderMinutes = PAGE_TIMINGS.reminderAfterMs / MINUTE;
  const escalateMinutes = PAGE_TIMINGS.escalateAfterMs / MINUTE;
  const step = (delayMinutes: number, types: EscalationTargetType[]): EscalationStep => ({
    delayMinutes,
    targets: types.map((type) => ({ type, id: rotation.id })),
    assignment: 'everyone',
    activeHours: null,
  });
  return {
    name: `${rotation.name} (default)`,
    repeat: 0,
    steps: [
      step(reminderMinutes, ['rotation-holder', 'rotation-backup']),
      step(escalateMinutes - reminderMinutes, ['rotation-holder']),
      step(reminderMinutes, ['rotation-next']),
    ],
  };
}
