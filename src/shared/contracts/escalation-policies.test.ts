import { describe, expect, test } from 'vitest';
import {
  DELAY_MINUTES_MAX,
  type EscalationPolicyInput,
  EscalationPolicyInputSchema,
} from './escalation-policies';

const valid: EscalationPolicyInput = {
  name: 'Payments escalation',
  repeat: 1,
  steps: [
    { delayMinutes: 15, targets: [{ type: 'rotation-holder', id: 1 }] },
    { delayMinutes: 15, targets: [{ type: 'user', id: 7 }], assignment: 'round-robin' },
  ],
};

/** The messages a body is refused with, keyed by the field's path. */
function refusals(body: unknown): Record<string, string> {
  const result = EscalationPolicyInputSchema.safeParse(body);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('EscalationPolicyInputSchema', () => {
  test('a valid policy reads with its defaults filled in', () => {
    const policy = EscalationPolicyInputSchema.parse(valid);
    expect(policy.steps[0]).toEqual({
      delayMinutes: 15,
      targets: [{ type: 'rotation-holder', id: 1 }],
      assignment: 'everyone',
      activeHours: null,
    });
    expect(policy.steps[1].assignment).toBe('round-robin');
  });

  test('every target type the issue names is accepted', () => {
    const types = [
      'rotation-holder',
      'rotation-next',
      'rotation-backup',
      'rotation-members',
      'user',
    ];
    const body = {
      ...valid,
      steps: [{ delayMinutes: 5, targets: types.map((type) => ({ type, id: 3 })) }],
    };
    expect(EscalationPolicyInputSchema.safeParse(body).success).toBe(true);
  });

  test.each([
    ['no steps', { ...valid, steps: [] }, 'steps', 'Add at least one step'],
    ['steps missing', { name: 'x', repeat: 0 }, 'steps', 'Add at least one step'],
    [
      'a delay of 0',
      { ...valid, steps: [{ delayMinutes: 0, targets: [{ type: 'user', id: 1 }] }] },
      'steps.0.delayMinutes',
      'A delay must be at least 1 minute',
    ],
    [
      'a delay over a day',
      {
        ...valid,
        steps: [{ delayMinutes: DELAY_MINUTES_MAX + 1, targets: [{ type: 'user', id: 1 }] }],
      },
      'steps.0.delayMinutes',
      'A delay must be at most 1440 minutes (one day)',
    ],
    [
      'a fractional delay',
      { ...valid, steps: [{ delayMinutes: 1.5, targets: [{ type: 'user', id: 1 }] }] },
      'steps.0.delayMinutes',
      'A delay must be a whole number of minutes from 1 to 1440',
    ],
    [
      'a step without targets',
      { ...valid, steps: [{ delayMinutes: 5, targets: [] }] },
      'steps.0.targets',
      'Add at least one target',
    ],
    [
      'an unknown target type',
      { ...valid, steps: [{ delayMinutes: 5, targets: [{ type: 'team', id: 1 }] }] },
      'steps.0.targets.0.type',
      'Unknown target type "team"; use one of rotation-holder, rotation-next, rotation-backup, rotation-members, user',
    ],
    [
      'a target without an id',
      { ...valid, steps: [{ delayMinutes: 5, targets: [{ type: 'user' }] }] },
      'steps.0.targets.0.id',
      'Choose a rotation or a person for this target',
    ],
    ['repeat 10', { ...valid, repeat: 10 }, 'repeat', 'Repeat must be a whole number from 0 to 9'],
    ['repeat -1', { ...valid, repeat: -1 }, 'repeat', 'Repeat must be a whole number from 0 to 9'],
    ['an empty name', { ...valid, name: '   ' }, 'name', 'Enter a name'],
    [
      'an unknown assignment',
      { ...valid, steps: [{ ...valid.steps[0], assignment: 'random' }] },
      'steps.0.assignment',
      'Choose everyone at once or round robin',
    ],
  ])('%s is refused with words next to the field', (_, body, path, message) => {
    expect(refusals(body)[path]).toBe(message);
  });

  describe('active hours', () => {
    const withHours = (activeHours: unknown) => ({
      ...valid,
      steps: [{ ...valid.steps[0], activeHours }],
    });

    test('nights and weekends, a window crossing midnight, reads as written', () => {
      const hours = [
        { daysOfWeek: [0, 1, 2, 3, 4, 5, 6], startTime: '22:00', endTime: '07:00' },
        { daysOfWeek: [6, 0], startTime: '00:00', endTime: '00:00' },
      ];
      expect(EscalationPolicyInputSchema.parse(withHours(hours)).steps[0].activeHours).toEqual(
        hours,
      );
    });

    test('null means every hour', () => {
      expect(EscalationPolicyInputSchema.parse(withHours(null)).steps[0].activeHours).toBeNull();
    });

    test.each([
      [[], 'steps.0.activeHours', 'Add at least one window, or let the step apply at all hours'],
      [
        [{ daysOfWeek: [], startTime: '22:00', endTime: '07:00' }],
        'steps.0.activeHours.0.daysOfWeek',
        'Choose at least one day',
      ],
      [
        [{ daysOfWeek: [7], startTime: '22:00', endTime: '07:00' }],
        'steps.0.activeHours.0.daysOfWeek.0',
        'A day must be a number from 0 (Sunday) to 6 (Saturday)',
      ],
      [
        [{ daysOfWeek: [1, 1], startTime: '22:00', endTime: '07:00' }],
        'steps.0.activeHours.0.daysOfWeek',
        'Each day may be chosen once',
      ],
      [
        [{ daysOfWeek: [1], startTime: '24:00', endTime: '07:00' }],
        'steps.0.activeHours.0.startTime',
        'Start time must be HH:MM (24-hour)',
      ],
      [
        [{ daysOfWeek: [1], startTime: '22:00' }],
        'steps.0.activeHours.0.endTime',
        'Enter end time as HH:MM',
      ],
    ])('%j is refused', (hours, path, message) => {
      expect(refusals(withHours(hours))[path]).toBe(message);
    });
  });
});
