import { describe, expect, test } from 'vitest';
import type { EscalationStep } from '../contracts/escalation-policies';
import { defaultEscalationPolicy } from './escalation';
import { isDefaultPolicy, type SetupFacts, setupSteps } from './setup-checklist';

const empty: SetupFacts = {
  people: 1,
  openInvitations: 0,
  peopleReady: 0,
  firstRotation: null,
  policiesInUse: [],
  integrations: 0,
  testPageAt: null,
};
const made = (id: number) => defaultEscalationPolicy({ id, name: 'Payments' });
const doneOf = (facts: Partial<SetupFacts>) =>
  Object.fromEntries(setupSteps({ ...empty, ...facts }).map((s) => [s.id, s.done]));

describe('isDefaultPolicy', () => {
  const own: EscalationStep = {
    delayMinutes: 30,
    targets: [{ type: 'user', id: 9 }],
    assignment: 'everyone',
    activeHours: null,
  };
  test.each([
    ['the policy Baton made, as made', made(4), true],
    ['made for another rotation', made(17), true],
    ['a step added', { ...made(4), steps: [...made(4).steps, own] }, false],
    [
      'a delay changed',
      { ...made(4), steps: [{ ...made(4).steps[0], delayMinutes: 5 }, ...made(4).steps.slice(1)] },
      false,
    ],
    ['repeated', { ...made(4), repeat: 1 }, false],
    [
      'round robin',
      {
        ...made(4),
        steps: made(4).steps.map((s) => ({ ...s, assignment: 'round-robin' as const })),
      },
      false,
    ],
    ['a policy of its own from the start', { repeat: 0, steps: [own] }, false],
    ['no steps', { repeat: 0, steps: [] }, false],
    [
      'targets naming two rotations',
      {
        ...made(4),
        steps: [made(4).steps[0], made(5).steps[1], made(4).steps[2]],
      },
      false,
    ],
  ])('%s → %s', (_, policy, expected) => {
    expect(isDefaultPolicy(policy)).toBe(expected);
  });

  test('activeHours missing reads as null (every hour)', () => {
    const steps = made(4).steps.map(({ activeHours: _, ...s }) => s) as EscalationStep[];
    expect(isDefaultPolicy({ repeat: 0, steps })).toBe(true);
  });
});

describe('setupSteps', () => {
  test('the six steps in order', () => {
    expect(setupSteps(empty).map((s) => s.id)).toEqual([
      'invite',
      'people',
      'rotation',
      'policy',
      'integration',
      'test-page',
    ]);
  });

  test.each<[string, Partial<SetupFacts>, Record<string, boolean>]>([
    ['an empty install', {}, { invite: false, people: false, rotation: false }],
    ['someone else has an account', { people: 2 }, { invite: true }],
    ['an invitation is open', { openInvitations: 1 }, { invite: true }],
    ['the lone administrator is ready', { peopleReady: 1 }, { invite: false, people: true }],
    ['an invitation is still open', { peopleReady: 1, openInvitations: 1 }, { people: false }],
    ['everyone is ready', { people: 3, peopleReady: 3 }, { people: true }],
    [
      'a rotation with members on its default policy',
      { firstRotation: { id: 4, escalationPolicyId: 8 }, policiesInUse: [made(4)] },
      { rotation: true, policy: false },
    ],
    [
      'one rotation of two on a policy of its own',
      {
        firstRotation: { id: 4, escalationPolicyId: 8 },
        policiesInUse: [made(4), { ...made(5), repeat: 2 }],
      },
      { policy: true },
    ],
    ['an integration', { integrations: 1 }, { integration: true }],
    [
      'a test page reached them',
      { testPageAt: new Date('2026-11-29T10:00:00Z') },
      { 'test-page': true },
    ],
  ])('%s', (_, facts, expected) => {
    expect(doneOf(facts)).toMatchObject(expected);
  });

  test('links go to the screen that does each step, the rotation’s own once there is one', () => {
    const hrefs = (facts: Partial<SetupFacts>) =>
      setupSteps({ ...empty, ...facts }).map((s) => s.href);
    expect(hrefs({})).toEqual([
      '/admin/users',
      '/admin/users',
      '/rotations/new',
      '/escalation-policies',
      '/rotations',
      '/profile',
    ]);
    expect(hrefs({ firstRotation: { id: 4, escalationPolicyId: 8 } })).toEqual([
      '/admin/users',
      '/admin/users',
      '/rotations/4',
      '/escalation-policies/8',
      '/rotations/4',
      '/profile',
    ]);
  });

  test.each([
    [
      { people: 1, peopleReady: 0 },
      'With a phone number and a time zone other than UTC on their profile: 0 of 1 person.',
    ],
    [
      { people: 3, peopleReady: 1, openInvitations: 2 },
      'With a phone number and a time zone other than UTC on their profile: 1 of 5 people (counting 2 invitations not yet accepted).',
    ],
  ])('people: %o → %s', (facts, detail) => {
    expect(setupSteps({ ...empty, ...facts })[1].detail).toBe(detail);
  });

  test.each([
    [{ people: 7 }, '7 accounts.'],
    [{ people: 1, openInvitations: 1 }, '1 account, 1 invitation not yet accepted.'],
    [{ people: 2, openInvitations: 3 }, '2 accounts, 3 invitations not yet accepted.'],
  ])('invite: %o → %s', (facts, detail) => {
    expect(setupSteps({ ...empty, ...facts })[0].detail).toBe(detail);
  });
});
