import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ESCALATION_TARGET_TYPES, REPEAT_MAX } from '../contracts/escalation-policies';
import {
  type EscalationProgress,
  nextEscalation,
  type PolicySnapshot,
  reachStep,
  resolveStep,
  startEscalation,
} from './escalation';
import { at, MINUTE, raised, rotation, step, world } from './escalation.fixtures';

/** Takes every transition nextEscalation answers as `now` moves, until the policy runs out. */
function walk(policy: PolicySnapshot, times: (next: Date) => Date) {
  let progress: EscalationProgress = startEscalation(raised);
  const visited: string[] = [];
  for (let guard = 0; guard < 1000; guard++) {
    const next = nextEscalation(
      policy,
      progress,
      times(nextEscalation(policy, progress, raised).at),
    );
    if (!next.due) throw new Error('the walk moved to a time when nothing was due');
    if (next.kind === 'exhausted') {
      visited.push('exhausted');
      return visited;
    }
    visited.push(`${next.loop}:${next.stepIndex}`);
    progress = reachStep(next, times(next.at));
  }
  throw new Error('the walk did not end');
}

const policyArb = fc.record({
  repeat: fc.integer({ min: 0, max: REPEAT_MAX }),
  steps: fc.array(
    fc
      .integer({ min: 1, max: 120 })
      .map((delay) => step(delay, [{ type: 'rotation-holder', id: 1 }])),
    { minLength: 1, maxLength: 6 },
  ),
});

const worldArb = fc
  .record({
    people: fc.array(
      fc.record({
        id: fc.integer({ min: 1, max: 8 }),
        deleted: fc.boolean(),
        hasChannel: fc.boolean(),
      }),
      { maxLength: 8 },
    ),
    rotations: fc.array(
      fc.record({
        id: fc.integer({ min: 1, max: 3 }),
        suspended: fc.boolean(),
        holderId: fc.option(fc.integer({ min: 1, max: 9 })),
        nextId: fc.option(fc.integer({ min: 1, max: 9 })),
        backupId: fc.option(fc.integer({ min: 1, max: 9 })),
        memberIds: fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { maxLength: 6 }),
      }),
      { maxLength: 3 },
    ),
    turn: fc.nat(1000),
  })
  .map(({ people, rotations, turn }) =>
    world(
      rotations.map((r) => rotation(r)),
      people,
      { turn },
    ),
  );

const targetsArb = fc.array(
  fc.record({
    type: fc.constantFrom(...ESCALATION_TARGET_TYPES),
    id: fc.integer({ min: 1, max: 9 }),
  }),
  { minLength: 1, maxLength: 5 },
);

describe('properties', () => {
  test('a walk ends after steps × (repeat + 1) transitions, in order, however late the clock', () => {
    fc.assert(
      fc.property(policyArb, fc.nat(600), (policy, lateMinutes) => {
        const visited = walk(policy, (due) => new Date(due.getTime() + lateMinutes * MINUTE));
        const expected: string[] = [];
        for (let loop = 0; loop <= policy.repeat; loop++) {
          policy.steps.forEach((_, i) => {
            if (loop > 0 || i > 0) expected.push(`${loop}:${i}`);
          });
        }
        expected.push('exhausted');
        expect(visited).toEqual(expected);
        expect(visited).toHaveLength(policy.steps.length * (policy.repeat + 1));
      }),
    );
  });

  test('catch-up from any now takes exactly one step, never a burst', () => {
    fc.assert(
      fc.property(policyArb, fc.nat(), fc.nat(), fc.nat(20_000), (policy, s, l, minutes) => {
        const progress = reachStep(
          { stepIndex: s % policy.steps.length, loop: l % (policy.repeat + 1) },
          raised,
        );
        const now = at(minutes);
        const next = nextEscalation(policy, progress, now);
        expect(next.due).toBe(now >= next.at);
        if (next.kind !== 'step' || !next.due) return;
        // Once taken at `now`, nothing more is due at `now`.
        expect(nextEscalation(policy, reachStep(next, now), now).due).toBe(false);
      }),
    );
  });

  test('resolveStep never answers a deleted person or one without a channel, nor anyone twice', () => {
    fc.assert(
      fc.property(worldArb, targetsArb, fc.boolean(), (w, targets, robin) => {
        const resolution = resolveStep(
          step(5, targets, { assignment: robin ? 'round-robin' : 'everyone' }),
          w,
          raised,
        );
        if (resolution.kind === 'skip') return;
        const ids = resolution.recipients.map((r) => r.userId);
        expect(new Set(ids).size).toBe(ids.length);
        for (const userId of ids) {
          const person = w.people.get(userId);
          expect(person?.deleted).toBe(false);
          expect(person?.hasChannel).toBe(true);
        }
      }),
    );
  });

  test('round robin visits every eligible person once per cycle', () => {
    fc.assert(
      fc.property(worldArb, targetsArb, (w, targets) => {
        const all = resolveStep(step(5, targets), w, raised);
        if (all.kind === 'skip') return;
        const eligible = all.recipients.map((r) => r.userId);
        const cycle = eligible.map((_, k) => {
          const one = resolveStep(
            step(5, targets, { assignment: 'round-robin' }),
            { ...w, turn: w.turn + k },
            raised,
          );
          if (one.kind !== 'notify' || one.recipients.length !== 1)
            throw new Error('one person a turn');
          return one.recipients[0].userId;
        });
        expect([...cycle].sort((a, b) => a - b)).toEqual([...eligible].sort((a, b) => a - b));
      }),
    );
  });
});
