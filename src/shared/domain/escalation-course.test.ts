import { describe, expect, test } from 'vitest';
import { EscalationPolicyInputSchema } from '../contracts/escalation-policies';
import {
  defaultEscalationPolicy,
  escalateByHand,
  isReminderStep,
  nextEscalation,
  type PolicySnapshot,
  reachStep,
  resolveStep,
  startEscalation,
} from './escalation';
import { at, everyone, MORGAN, PRIYA, raised, SAM, step } from './escalation.fixtures';
import { PAGE_TIMINGS } from './paging';

describe('nextEscalation', () => {
  const threeSteps: PolicySnapshot = {
    repeat: 1,
    steps: [
      step(5, [{ type: 'rotation-holder', id: 10 }]),
      step(10, [{ type: 'rotation-next', id: 10 }]),
      step(15, [{ type: 'user', id: MORGAN }]),
    ],
  };

  test('a three-step policy with repeat 1, walked with a moving clock', () => {
    let progress = startEscalation(raised);
    const seen: string[] = [];
    // Minute by minute for two hours: each step comes once, when its delay is over.
    for (let minute = 0; minute <= 120; minute++) {
      const now = at(minute);
      const next = nextEscalation(threeSteps, progress, now);
      if (!next.due) continue;
      if (next.kind === 'exhausted') {
        seen.push(`exhausted at ${minute}`);
        break;
      }
      seen.push(`loop ${next.loop} step ${next.stepIndex + 1} at ${minute}`);
      progress = reachStep(next, now);
    }
    expect(seen).toEqual([
      'loop 0 step 2 at 5',
      'loop 0 step 3 at 15',
      'loop 1 step 1 at 30',
      'loop 1 step 2 at 35',
      'loop 1 step 3 at 45',
      'exhausted at 60',
    ]);
  });

  test('what is due, and when, before it is due', () => {
    expect(nextEscalation(threeSteps, startEscalation(raised), at(4))).toEqual({
      kind: 'step',
      stepIndex: 1,
      loop: 0,
      at: at(5),
      due: false,
    });
  });

  test('a skipped step does not wait out its delay', () => {
    const skipped = reachStep({ stepIndex: 0, loop: 0 }, raised, true);
    expect(nextEscalation(threeSteps, skipped, raised)).toMatchObject({
      kind: 'step',
      stepIndex: 1,
      due: true,
    });
  });

  test('after downtime the engine takes one step, and the next waits its full delay', () => {
    // Down from minute 1 to minute 500: every step and the end of the policy were due long ago.
    const late = at(500);
    const next = nextEscalation(threeSteps, startEscalation(raised), late);
    expect(next).toMatchObject({ kind: 'step', stepIndex: 1, loop: 0, due: true });
    const progress = reachStep(next as { stepIndex: number; loop: number }, late);
    expect(nextEscalation(threeSteps, progress, late)).toMatchObject({ due: false, at: at(510) });
  });

  test('a two-person rotation reaches the named manager at step 3', () => {
    const policy: PolicySnapshot = {
      repeat: 0,
      steps: [
        step(15, [{ type: 'rotation-holder', id: 10 }]),
        step(15, [{ type: 'rotation-next', id: 10 }]),
        step(15, [{ type: 'user', id: MORGAN }]),
      ],
    };
    let progress = startEscalation(raised);
    const notified: number[][] = [];
    const notify = (now: Date) => {
      const resolution = resolveStep(policy.steps[progress.stepIndex], everyone, now);
      notified.push(resolution.kind === 'notify' ? resolution.recipients.map((r) => r.userId) : []);
    };
    notify(raised);
    for (const minute of [15, 30]) {
      const next = nextEscalation(policy, progress, at(minute));
      if (next.kind !== 'step' || !next.due) throw new Error(`step due at ${minute}`);
      progress = reachStep(next, at(minute));
      notify(at(minute));
    }
    expect(notified).toEqual([[PRIYA], [SAM], [MORGAN]]);
    expect(nextEscalation(policy, progress, at(45))).toEqual({
      kind: 'exhausted',
      at: at(45),
      due: true,
    });
  });
});

describe('escalateByHand', () => {
  const policy: PolicySnapshot = {
    repeat: 1,
    steps: [
      step(30, [{ type: 'rotation-holder', id: 10 }]),
      step(30, [{ type: 'user', id: MORGAN }]),
    ],
  };

  test('to the next step at once, however long the current one has left', () => {
    expect(escalateByHand(policy, startEscalation(raised), at(2))).toEqual({
      ok: true,
      progress: { stepIndex: 1, loop: 0, stepStartedAt: at(2), stepSkipped: false },
    });
  });

  test('after the last step, to the first step of the next loop', () => {
    const last = reachStep({ stepIndex: 1, loop: 0 }, raised);
    expect(escalateByHand(policy, last, at(1))).toMatchObject({
      ok: true,
      progress: { stepIndex: 0, loop: 1 },
    });
  });

  test('after the last step of the last loop there is nowhere further', () => {
    const end = reachStep({ stepIndex: 1, loop: 1 }, raised);
    expect(escalateByHand(policy, end, at(1))).toEqual({
      ok: false,
      message: 'This is the last step of the policy; choose a step to escalate to',
    });
  });

  test('to a chosen step, in the same loop, starting now', () => {
    const second = reachStep({ stepIndex: 1, loop: 1 }, raised);
    expect(escalateByHand(policy, second, at(3), 0)).toEqual({
      ok: true,
      progress: { stepIndex: 0, loop: 1, stepStartedAt: at(3), stepSkipped: false },
    });
  });

  test.each([-1, 2, 1.5])('step %d is refused in words', (to) => {
    expect(escalateByHand(policy, startEscalation(raised), raised, to)).toEqual({
      ok: false,
      message: 'Choose a step from 1 to 2',
    });
  });
});

describe('defaultEscalationPolicy', () => {
  const policy = defaultEscalationPolicy({ id: 10, name: 'Payments' });

  test('is a valid policy as the API would take it', () => {
    expect(EscalationPolicyInputSchema.parse(policy)).toEqual(policy);
  });

  test('holder (and backup) at once, a reminder at 15 minutes, the next member at 30', () => {
    expect(policy.name).toBe('Payments (default)');
    expect(policy.repeat).toBe(0);
    expect(policy.steps.map((s) => s.targets.map((t) => `${t.type} ${t.id}`))).toEqual([
      ['rotation-holder 10', 'rotation-backup 10'],
      ['rotation-holder 10'],
      ['rotation-next 10'],
    ]);
    expect(isReminderStep(policy, 1)).toBe(true);
    expect(isReminderStep(policy, 2)).toBe(false);
    // The steps start when today's paging flow acts: its timings, not copies of them.
    let progress = startEscalation(raised);
    const starts: number[] = [];
    for (let i = 0; i < 2; i++) {
      const next = nextEscalation(policy, progress, raised);
      starts.push(next.at.getTime() - raised.getTime());
      if (next.kind !== 'step') throw new Error('the default policy has three steps');
      progress = reachStep(next, next.at);
    }
    expect(starts).toEqual([PAGE_TIMINGS.reminderAfterMs, PAGE_TIMINGS.escalateAfterMs]);
  });
});
