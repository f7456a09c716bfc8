import { describe, expect, test } from 'vitest';
import {
  type BatonRotation,
  type BatonState,
  buildPlan,
  desiredPolicy,
  desiredRotation,
  holdersOf,
  ImportRowError,
  INTEGRATION_LEFT_OUT,
  linkKey,
  matchPeople,
  OVERRIDE_LEFT_OUT,
  POLICY_LEFT_OUT,
} from './import-plan';
import { fakeAccount, IMPORT_NOW, platformSchedule, snapshotOf } from './import-routes.fixtures';

/** The import plan, pure (issue 34, decision 268): a snapshot and Baton's state in, a plan out. */

const now = new Date(IMPORT_NOW);
const window = { from: now, to: new Date(now.getTime() + 90 * 86_400_000) };
const snapshot = () => snapshotOf(fakeAccount(), window);

function state(overrides: Partial<BatonState> = {}): BatonState {
  return {
    now,
    companyDomain: 'example.com',
    people: [
      { id: 1, name: 'Ada', email: 'ada@example.com', canHold: true },
      { id: 2, name: 'Ben', email: 'BEN@example.com', canHold: true },
      { id: 3, name: 'Cy', email: 'cy@example.com', canHold: false },
    ],
    pendingInvitations: new Set(),
    links: new Map(),
    rotations: new Map(),
    policies: new Map(),
    integrations: new Map(),
    ...overrides,
  };
}

describe('matchPeople', () => {
  test('by email in any case; invites in the domain; skips with a reason', () => {
    const people = matchPeople(snapshot(), state());
    expect(people.map((p) => [p.sourceId, p.action, p.userId, p.reason])).toEqual([
      ['PADA', 'match', 1, null],
      ['PBEN', 'match', 2, null],
      [
        'PCY',
        'match',
        3,
        'Cy cannot hold the baton (not on-call or manager): left out of rotations',
      ],
      [
        'PDEE',
        'invite',
        null,
        'No Baton person has this email: invited, and on call in Baton from the apply',
      ],
      ['PEVE', 'skip', null, 'No email address to match'],
      [
        'POUT',
        'skip',
        null,
        'Email is outside the example.com domain: Baton invites only addresses of that domain',
      ],
    ]);
  });

  test('a pending invitation is not sent again', () => {
    const people = matchPeople(
      snapshot(),
      state({ pendingInvitations: new Set(['dee@example.com']) }),
    );
    expect(people.find((p) => p.sourceId === 'PDEE')).toMatchObject({ action: 'skip' });
  });
});

describe('desiredRotation', () => {
  const holders = (s = state()) => holdersOf(matchPeople(snapshot(), s), s);

  test('layers keep the people Baton has; those it lacks are left out, and said so', () => {
    const desired = desiredRotation(snapshot().schedules[0], snapshot(), holders(), now);
    expect(desired.type).toBe('fixed');
    if (desired.type !== 'fixed') return;
    expect(desired.layers.map((l) => [l.name, l.memberIds, l.startsAt])).toEqual([
      ['Around the clock', [1, 2], '2027-02-01T13:00:00.000Z'],
      ['Office hours', [2], '2027-02-01T14:00:00.000Z'],
    ]);
    expect(desired.notes).toEqual([
      {
        level: 'warning',
        subject: 'Schedule “Platform” (P123) layer “Office hours”',
        message: 'Not in Baton yet, so left out of the turns until a later import: Cy Source',
      },
    ]);
  });

  test('no layer with anyone Baton has: a scheduled rotation of the rendered shifts from now', () => {
    const s = snapshot();
    const [database] = s.schedules.filter((x) => x.sourceId === 'P456');
    const only = state({
      people: [{ id: 1, name: 'Ada', email: 'ada@example.com', canHold: true }],
    });
    const withoutAda = {
      ...database,
      layers: database.layers?.map((l) => ({ ...l, memberSourceIds: ['PCY'] })) ?? null,
    };
    const desired = desiredRotation(withoutAda, s, holders(only), now);
    expect(desired.type).toBe('scheduled');
    if (desired.type !== 'scheduled') return;
    expect(desired.entries.length).toBeGreaterThan(40);
    expect(desired.entries.every((e) => e.userId === 1 && e.start >= now)).toBe(true);
    expect(desired.notes.at(-1)?.message).toBe(
      'No layer has anyone Baton has yet: made a scheduled rotation of the rendered shifts',
    );
  });

  test('a person the source did not list is a row error naming the schedule', () => {
    const broken = { ...platformSchedule(), rendered: [] };
    broken.layers?.[0]?.memberSourceIds.push('PGHOST');
    expect(() => desiredRotation(broken, snapshot(), holders(), now)).toThrow(
      new ImportRowError(
        'Schedule “Platform” (P123)',
        'names a person the source did not list (PGHOST)',
      ),
    );
  });
});

describe('desiredPolicy', () => {
  test('a delay before a step becomes the wait after the one before it; the last keeps its own', () => {
    const s = snapshot();
    const h = holdersOf(matchPeople(s, state()), state());
    const policy = {
      ...s.policies[0],
      steps: [
        { delayMinutes: 5, targets: [{ kind: 'schedule' as const, sourceId: 'P123' }] },
        { delayMinutes: 10, targets: [{ kind: 'person' as const, sourceId: 'PBEN' }] },
        { delayMinutes: 30, targets: [{ kind: 'person' as const, sourceId: 'PDEE' }] },
      ],
    };
    const desired = desiredPolicy(policy, s, h, (id) => (id === 'P123' ? 7 : null));
    expect(desired.steps).toEqual([
      { delayMinutes: 10, targets: [{ type: 'rotation-holder', id: 7 }] },
      { delayMinutes: 30, targets: [{ type: 'user', id: 2 }] },
      { delayMinutes: 30, targets: [] },
    ]);
    expect(desired.notes.map((n) => n.message)).toEqual([
      'Baton notifies the first step when the incident opens; the source waited 5 minutes first',
      'Dee New is not in Baton yet: left out of the step until a later import',
    ]);
    // Where the source says how long its last step waits before the repeat, that is its delay.
    const looped = desiredPolicy({ ...policy, loopDelayMinutes: 45 }, s, h, () => 7);
    expect(looped.steps.map((step) => step.delayMinutes)).toEqual([10, 30, 45]);
  });
});

describe('buildPlan', () => {
  test('a linked rotation whose layers are the same (keys in jsonb order) is unchanged', () => {
    const s = snapshot();
    const first = state();
    const desired = desiredRotation(
      s.schedules[0],
      s,
      holdersOf(matchPeople(s, first), first),
      now,
    );
    if (desired.type !== 'fixed') throw new Error('expected layers');
    const reordered = desired.layers.map((l) =>
      Object.fromEntries(Object.entries(l).reverse()),
    ) as typeof desired.layers;
    const linked = state({
      links: new Map([[linkKey('rotation', 'P123'), 9]]),
      rotations: new Map([
        [
          9,
          {
            id: 9,
            name: 'Platform',
            type: 'fixed',
            timeZone: 'America/New_York',
            layers: reordered,
            entries: [],
          },
        ],
      ]),
    });
    const plan = buildPlan(s, linked);
    expect(plan.changes.find((c) => c.sourceId === 'P123')).toMatchObject({
      action: 'unchanged',
      batonId: 9,
    });
    const renamed = new Map(linked.rotations);
    const held = renamed.get(9) as BatonRotation;
    renamed.set(9, { ...held, name: 'Old name', timeZone: 'UTC' });
    const again = buildPlan(s, { ...linked, rotations: renamed });
    expect(again.changes.find((c) => c.sourceId === 'P123')).toMatchObject({ action: 'update' });
    expect(again.changes.find((c) => c.sourceId === 'P123')?.details.slice(0, 2)).toEqual([
      'name: “Old name” → “Platform”',
      'time zone: UTC → America/New_York',
    ]);
  });

  test('a policy naming nobody Baton has yet is left out, and its integration with it', () => {
    const s = snapshot();
    s.policies = [
      {
        ...s.policies[0],
        steps: [{ delayMinutes: 0, targets: [{ kind: 'person', sourceId: 'PEVE' }] }],
      },
    ];
    const plan = buildPlan(s, state());
    // (Cy cannot hold the baton here: the override they take is left out too.)
    expect(plan.changes.map((c) => c.kind)).toEqual(['rotation', 'rotation']);
    expect(plan.notes.slice(-2)).toEqual([
      {
        level: 'warning',
        subject: 'Escalation policy “Platform escalation” (EP1)',
        message: POLICY_LEFT_OUT,
      },
      {
        level: 'warning',
        subject: 'Integration “Platform API” (I1)',
        message: INTEGRATION_LEFT_OUT,
      },
    ]);
  });

  test('counts the plan: creates, invitations, warnings', () => {
    const plan = buildPlan(snapshot(), state());
    // Cy cannot hold the baton here: left out of two layers and their override. Dee, invited, is
    // on call from the apply: nothing is left out for her.
    expect(plan.summary).toEqual({ create: 4, update: 0, unchanged: 0, invite: 1, warnings: 3 });
    expect(plan.notes).toContainEqual({
      level: 'warning',
      subject: 'Schedule “Platform” (P123) override of Cy Source from 2027-03-20T12:00:00.000Z',
      message: OVERRIDE_LEFT_OUT,
    });
    expect(plan.notes[0]).toEqual({
      level: 'info',
      subject: 'Account',
      message: 'Read by the test reader',
    });
  });
});
