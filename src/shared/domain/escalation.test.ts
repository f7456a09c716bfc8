import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type ActiveWindow,
  ESCALATION_TARGET_TYPES,
  EscalationPolicyInputSchema,
  type EscalationStep,
  type EscalationTarget,
  REPEAT_MAX,
} from '../contracts/escalation-policies';
import {
  defaultEscalationPolicy,
  type EscalationProgress,
  type EscalationWorld,
  escalateByHand,
  isReminderStep,
  isWithinActiveHours,
  nextEscalation,
  type PersonState,
  type PolicySnapshot,
  type RotationState,
  reachStep,
  resolveStep,
  startEscalation,
} from './escalation';
import { PAGE_TIMINGS } from './paging';

const MINUTE = 60_000;
const raised = new Date('2026-11-02T12:00:00Z');
const at = (minutes: number) => new Date(raised.getTime() + minutes * MINUTE);

const step = (
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

function rotation(facts: Partial<RotationState> & { id: number }): RotationState {
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

const reachable = (id: number): PersonState => ({ id, deleted: false, hasChannel: true });

function world(
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
const PRIYA = 1;
const SAM = 2;
const MORGAN = 9;
const twoPeople = rotation({ id: 10, holderId: PRIYA, nextId: SAM, memberIds: [PRIYA, SAM] });
const everyone = world([twoPeople], [reachable(PRIYA), reachable(SAM), reachable(MORGAN)]);

describe('resolveStep', () => {
  test('each target type names its people, with why', () => {
    const backedUp = rotation({ ...twoPeople, backupId: SAM });
    const w = world([backedUp], [reachable(PRIYA), reachable(SAM), reachable(MORGAN)]);
    const answer = (type: EscalationTarget['type'], id = 10) =>
      resolveStep(step(5, [{ type, id }]), w, raised);
    expect(answer('rotation-holder')).toEqual({
      kind: 'notify',
      recipients: [{ userId: PRIYA, reasons: ['holder'] }],
      skipped: [],
    });
    expect(answer('rotation-next')).toMatchObject({
      recipients: [{ userId: SAM, reasons: ['next on call'] }],
    });
    expect(answer('rotation-backup')).toMatchObject({
      recipients: [{ userId: SAM, reasons: ['backup'] }],
    });
    expect(answer('rotation-members')).toMatchObject({
      recipients: [
        { userId: PRIYA, reasons: ['member'] },
        { userId: SAM, reasons: ['member'] },
      ],
    });
    expect(answer('user', MORGAN)).toMatchObject({
      recipients: [{ userId: MORGAN, reasons: ['named'] }],
    });
  });

  test('a person reached by two targets is notified once, with both reasons', () => {
    const resolution = resolveStep(
      step(5, [
        { type: 'rotation-holder', id: 10 },
        { type: 'rotation-members', id: 10 },
        { type: 'user', id: PRIYA },
      ]),
      everyone,
      raised,
    );
    expect(resolution).toEqual({
      kind: 'notify',
      recipients: [
        { userId: PRIYA, reasons: ['holder', 'member', 'named'] },
        { userId: SAM, reasons: ['member'] },
      ],
      skipped: [],
    });
  });

  test('a suspended rotation is skipped and says so', () => {
    const suspended = world(
      [{ ...twoPeople, suspended: true }],
      [reachable(PRIYA), reachable(SAM)],
    );
    const target: EscalationTarget = { type: 'rotation-holder', id: 10 };
    expect(resolveStep(step(5, [target]), suspended, raised)).toEqual({
      kind: 'skip',
      reason: 'rotation suspended',
      skipped: [{ target, reason: 'rotation suspended' }],
    });
  });

  test('a suspended rotation is skipped, and the named person still notified', () => {
    const suspended = world([{ ...twoPeople, suspended: true }], [reachable(MORGAN)]);
    const resolution = resolveStep(
      step(5, [
        { type: 'rotation-members', id: 10 },
        { type: 'user', id: MORGAN },
      ]),
      suspended,
      raised,
    );
    expect(resolution).toEqual({
      kind: 'notify',
      recipients: [{ userId: MORGAN, reasons: ['named'] }],
      skipped: [{ target: { type: 'rotation-members', id: 10 }, reason: 'rotation suspended' }],
    });
  });

  test('nobody holding the baton is a skip: nobody to notify', () => {
    const empty = world([rotation({ id: 10, memberIds: [PRIYA] })], [reachable(PRIYA)]);
    expect(
      resolveStep(step(5, [{ type: 'rotation-holder', id: 10 }]), empty, raised),
    ).toMatchObject({
      kind: 'skip',
      reason: 'nobody to notify',
    });
  });

  test('a rotation that is gone reaches nobody', () => {
    expect(
      resolveStep(step(5, [{ type: 'rotation-next', id: 99 }]), everyone, raised),
    ).toMatchObject({
      kind: 'skip',
      reason: 'nobody to notify',
    });
  });

  test('a deleted person and one without a channel are skipped with their reason', () => {
    const w = world(
      [twoPeople],
      [
        { id: PRIYA, deleted: true, hasChannel: true },
        { id: SAM, deleted: false, hasChannel: false },
      ],
    );
    const members: EscalationTarget = { type: 'rotation-members', id: 10 };
    expect(resolveStep(step(5, [members]), w, raised)).toEqual({
      kind: 'skip',
      reason: 'nobody to notify',
      skipped: [
        { target: members, reason: 'person deleted', userId: PRIYA },
        { target: members, reason: 'person without a channel', userId: SAM },
      ],
    });
    const holder: EscalationTarget = { type: 'rotation-holder', id: 10 };
    expect(resolveStep(step(5, [holder]), w, raised)).toMatchObject({
      kind: 'skip',
      reason: 'person deleted',
    });
    // A person Baton no longer knows at all counts as deleted.
    expect(resolveStep(step(5, [{ type: 'user', id: 404 }]), w, raised)).toMatchObject({
      kind: 'skip',
      reason: 'person deleted',
    });
  });

  test('round robin notifies one person, the next in turn each time', () => {
    const three = rotation({ id: 10, holderId: 1, memberIds: [1, 2, 3] });
    const people = [reachable(1), reachable(2), reachable(3)];
    const robin = step(5, [{ type: 'rotation-members', id: 10 }], { assignment: 'round-robin' });
    const picked = [0, 1, 2, 3, 4].map((turn) => {
      const resolution = resolveStep(robin, world([three], people, { turn }), raised);
      return resolution.kind === 'notify' ? resolution.recipients.map((r) => r.userId) : [];
    });
    expect(picked).toEqual([[1], [2], [3], [1], [2]]);
  });

  test('round robin passes over a person who cannot be reached', () => {
    const three = rotation({ id: 10, memberIds: [1, 2, 3] });
    const people = [reachable(1), { id: 2, deleted: false, hasChannel: false }, reachable(3)];
    const robin = step(5, [{ type: 'rotation-members', id: 10 }], { assignment: 'round-robin' });
    const resolution = resolveStep(robin, world([three], people, { turn: 1 }), raised);
    expect(resolution).toMatchObject({ kind: 'notify', recipients: [{ userId: 3 }] });
  });

  test('outside its hours a step is skipped, read in the rotation zone', () => {
    const nights: ActiveWindow[] = [
      { daysOfWeek: [0, 1, 2, 3, 4, 5, 6], startTime: '22:00', endTime: '07:00' },
    ];
    const manager = step(5, [{ type: 'user', id: MORGAN }], { activeHours: nights });
    const tokyo = { ...everyone, timeZone: 'Asia/Tokyo' };
    // 12:00 UTC is 21:00 in Tokyo: not yet night; 13:00 UTC is 22:00 there.
    expect(resolveStep(manager, tokyo, new Date('2026-11-02T12:00:00Z'))).toEqual({
      kind: 'skip',
      reason: 'outside the step hours',
      skipped: [],
    });
    expect(resolveStep(manager, tokyo, new Date('2026-11-02T13:00:00Z'))).toMatchObject({
      kind: 'notify',
      recipients: [{ userId: MORGAN }],
    });
  });
});

describe('isWithinActiveHours', () => {
  const BERLIN = 'Europe/Berlin';
  // The manager "only 22:00–07:00 and weekends".
  const nightsAndWeekends: ActiveWindow[] = [
    { daysOfWeek: [0, 1, 2, 3, 4, 5, 6], startTime: '22:00', endTime: '07:00' },
    { daysOfWeek: [6, 0], startTime: '00:00', endTime: '00:00' },
  ];
  const inBerlin = (iso: string) => isWithinActiveHours(nightsAndWeekends, BERLIN, new Date(iso));

  test('no windows means every hour', () => {
    expect(isWithinActiveHours(null, BERLIN, raised)).toBe(true);
  });

  test('nights and weekends across the spring change (29 March 2026): local hours, not UTC', () => {
    // Monday 23 March, winter time (UTC+1): 05:30 UTC is 06:30 local, night; 06:30 UTC is 07:30.
    expect(inBerlin('2026-03-23T05:30:00Z')).toBe(true);
    expect(inBerlin('2026-03-23T06:30:00Z')).toBe(false);
    // Monday 30 March, summer time (UTC+2): the same 05:30 UTC is 07:30 local, daytime.
    expect(inBerlin('2026-03-30T04:59:00Z')).toBe(true);
    expect(inBerlin('2026-03-30T05:30:00Z')).toBe(false);
    // Friday evening: 21:30 local is day, 22:00 local is night, either side of the change.
    expect(inBerlin('2026-03-27T20:30:00Z')).toBe(false);
    expect(inBerlin('2026-03-27T21:00:00Z')).toBe(true);
    expect(inBerlin('2026-04-03T19:59:00Z')).toBe(false);
    expect(inBerlin('2026-04-03T20:00:00Z')).toBe(true);
    // The weekend, through the night the clocks go forward (02:00 → 03:00 on Sunday 29 March).
    expect(inBerlin('2026-03-28T11:00:00Z')).toBe(true);
    expect(inBerlin('2026-03-29T00:59:00Z')).toBe(true);
    expect(inBerlin('2026-03-29T01:00:00Z')).toBe(true);
    expect(inBerlin('2026-03-29T12:00:00Z')).toBe(true);
    // Monday daytime is outside again.
    expect(inBerlin('2026-03-30T10:00:00Z')).toBe(false);
  });

  test('the hour that happens twice in autumn (25 October 2026) is night both times', () => {
    // 02:30 local happens at 00:30 UTC (summer time) and at 01:30 UTC (winter time).
    const saturdayNight: ActiveWindow[] = [
      { daysOfWeek: [6], startTime: '22:00', endTime: '07:00' },
    ];
    expect(isWithinActiveHours(saturdayNight, BERLIN, new Date('2026-10-25T00:30:00Z'))).toBe(true);
    expect(isWithinActiveHours(saturdayNight, BERLIN, new Date('2026-10-25T01:30:00Z'))).toBe(true);
    // 07:00 local on Sunday is 06:00 UTC in winter time: the window has closed.
    expect(isWithinActiveHours(saturdayNight, BERLIN, new Date('2026-10-25T05:59:00Z'))).toBe(true);
    expect(isWithinActiveHours(saturdayNight, BERLIN, new Date('2026-10-25T06:00:00Z'))).toBe(
      false,
    );
  });

  test('a window belongs to the day it starts: Saturday night runs into Sunday morning', () => {
    const saturdayNight: ActiveWindow[] = [
      { daysOfWeek: [6], startTime: '22:00', endTime: '07:00' },
    ];
    const utc = (iso: string) => isWithinActiveHours(saturdayNight, 'UTC', new Date(iso));
    expect(utc('2026-11-07T21:59:00Z')).toBe(false); // Saturday 21:59
    expect(utc('2026-11-07T22:00:00Z')).toBe(true); // Saturday 22:00
    expect(utc('2026-11-08T06:59:00Z')).toBe(true); // Sunday 06:59
    expect(utc('2026-11-08T07:00:00Z')).toBe(false); // Sunday 07:00
    expect(utc('2026-11-07T06:59:00Z')).toBe(false); // Saturday 06:59: Friday was not chosen
  });

  test('a daytime window ends at its end time', () => {
    const office: ActiveWindow[] = [
      { daysOfWeek: [1, 2, 3, 4, 5], startTime: '09:00', endTime: '17:00' },
    ];
    const utc = (iso: string) => isWithinActiveHours(office, 'UTC', new Date(iso));
    expect(utc('2026-11-02T08:59:00Z')).toBe(false);
    expect(utc('2026-11-02T09:00:00Z')).toBe(true);
    expect(utc('2026-11-02T16:59:00Z')).toBe(true);
    expect(utc('2026-11-02T17:00:00Z')).toBe(false);
    expect(utc('2026-11-01T12:00:00Z')).toBe(false); // Sunday
  });
});

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

// ---------------------------------------------------------------------------------------------
// Properties

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
