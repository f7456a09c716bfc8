import type { EscalationStep, EscalationTarget } from '../contracts/escalation-policies';
import type { EscalationWorld, PersonState, RotationState } from './escalation';

/*
 * What the escalation suites share: the clock from the incident's raise, builders of steps,
 * rotations and worlds, and the two-person rotation most cases use.
 */

export const MINUTE = 60_000;
export const raised = new Date('2026-11-02T12:00:00Z');
export const at = (minutes: number) => new Date(raised.getTime() + minutes * MINUTE);

export const step = (
  delayMinutes: number,
  targets: EscalationTarget[],
  more: Partial<EscalationStep> = {},
): EscalationStep => ({
  delayMinutes,
  targets,
  assignment: 'everyone',
  activeHours: null,
  ...more,
});

export function rotation(facts: Partial<RotationState> & { id: number }): RotationState {
  return {
    suspended: false,
    timeZone: 'UTC',
    holderId: null,
    nextId: null,
    backupId: null,
    memberIds: [],
    ...facts,
  };
}

export const reachable = (id: number): PersonState => ({ id, deleted: false, hasChannel: true });

export function world(
  rotations: RotationState[],
  people: PersonState[],
  more: Partial<EscalationWorld> = {},
): EscalationWorld {
  return {
    rotations: new Map(rotations.map((r) => [r.id, r])),
    people: new Map(people.map((p) => [p.id, p])),
    timeZone: 'UTC',
    turn: 0,
    ...more,
  };
}

// Priya (1) holds the two-person rotation 10, Sam (2) is next; Morgan (9) manages it.
export const PRIYA = 1;
export const SAM = 2;
export const MORGAN = 9;
export const twoPeople = rotation({
  id: 10,
  holderId: PRIYA,
  nextId: SAM,
  memberIds: [PRIYA, SAM],
});
export const everyone = world([twoPeople], [reachable(PRIYA), reachable(SAM), reachable(MORGAN)]);
