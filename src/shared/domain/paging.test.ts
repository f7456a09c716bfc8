import { describe, expect, test } from 'vitest';
import { DEFAULT_HANDOFF_TIMINGS, type LatestHandoff } from './handoff-flow';
import {
  ackLinkExpiresAt,
  ackLinkState,
  canAcknowledgePage,
  canEscalatePage,
  canResolvePage,
  escalatesAt,
  escalationTarget,
  nextPageStep,
  type PageStatus,
  pageBackupOf,
  reminderAt,
  type Urgency,
} from './paging';

const paged = new Date('2026-11-02T12:00:00Z');
const at = (minutes: number) => new Date(paged.getTime() + minutes * 60_000);

const page = (
  overrides: Partial<{
    status: PageStatus;
    urgency: Urgency;
    escalatedAt: Date | null;
    reminderSent: boolean;
    hasEscalationTarget: boolean;
  }> = {},
) => ({
  status: 'triggered' as PageStatus,
  urgency: 'high' as Urgency,
  createdAt: paged,
  escalatedAt: null,
  reminderSent: false,
  hasEscalationTarget: true,
  ...overrides,
});

describe('nextPageStep', () => {
  test.each([
    ['nothing before 15 minutes', page(), 14.99, null],
    ['the reminder at 15 minutes', page(), 15, 'remind'],
    ['no second reminder', page({ reminderSent: true }), 20, null],
    ['the escalation at 30 minutes', page({ reminderSent: true }), 30, 'escalate'],
    ['after downtime, the escalation without the stale reminder', page(), 45, 'escalate'],
    ['nothing once acknowledged', page({ status: 'acknowledged' }), 45, null],
    ['nothing once resolved', page({ status: 'resolved' }), 45, null],
    ['medium: reminded, never escalated', page({ urgency: 'medium' }), 45, 'remind'],
    [
      'medium after its reminder: nothing',
      page({ urgency: 'medium', reminderSent: true }),
      45,
      null,
    ],
    ['low: reminded, never escalated', page({ urgency: 'low' }), 15, 'remind'],
    [
      'no one to escalate to: the reminder still comes',
      page({ hasEscalationTarget: false }),
      45,
      'remind',
    ],
    [
      'escalated: reminder 15 minutes after the escalation',
      page({ status: 'escalated', escalatedAt: at(30) }),
      44.9,
      null,
    ],
    [
      'escalated: the new recipient is reminded',
      page({ status: 'escalated', escalatedAt: at(30) }),
      45,
      'remind',
    ],
    [
      'escalated pages never escalate on their own again',
      page({ status: 'escalated', escalatedAt: at(30), reminderSent: true }),
      120,
      null,
    ],
    ['a page open more than a day takes no steps', page(), 24 * 60 + 1, null],
  ] as const)('%s', (_, facts, minutes, expected) => {
    expect(nextPageStep(facts, at(minutes))?.kind ?? null).toBe(expected);
  });

  test('the reminder step names when the current recipient was paged', () => {
    expect(nextPageStep(page({ status: 'escalated', escalatedAt: at(5) }), at(20))).toEqual({
      kind: 'remind',
      stepStart: at(5),
    });
  });
});

test.each([
  ['high', 'triggered', at(15), at(30)],
  ['medium', 'triggered', at(15), null],
  ['low', 'triggered', at(15), null],
  ['high', 'acknowledged', null, null],
  ['high', 'escalated', at(25), null],
] as const)(
  'urgency %s, %s: reminder at %s, escalation at %s',
  (urgency, status, remind, escalate) => {
    const facts = {
      status,
      urgency,
      createdAt: paged,
      escalatedAt: status === 'escalated' ? at(10) : null,
    };
    expect(reminderAt(facts)).toEqual(remind);
    expect(escalatesAt(facts)).toEqual(escalate);
  },
);

describe('escalationTarget', () => {
  const oncall = ['on-call'] as const;
  const members = [
    { userId: 1, order: 0, roles: oncall },
    { userId: 2, order: 1, roles: ['incident_manager'] as const },
    { userId: 3, order: 2, roles: ['manager'] as const },
    { userId: 4, order: 3, roles: oncall },
  ];
  test.each([
    [1, 3], // skips the incident manager, who cannot hold the baton
    [3, 4],
    [4, 1], // wraps around
    [99, 1], // no longer a member: the first who can hold it
    [null, 1],
  ])('after %s comes %s', (current, expected) => {
    expect(escalationTarget(members, current)).toBe(expected);
  });
  test('nobody else: null', () => {
    expect(escalationTarget([{ userId: 1, order: 0, roles: oncall }], 1)).toBeNull();
    expect(escalationTarget([], 1)).toBeNull();
  });
});

describe('acknowledgement links', () => {
  test('work for a day from when the current recipient was paged, and only while open', () => {
    const open = { status: 'triggered' as const, createdAt: paged, escalatedAt: null };
    expect(ackLinkExpiresAt(open)).toEqual(at(24 * 60));
    expect(ackLinkState(open, at(24 * 60 - 1))).toBe('open');
    expect(ackLinkState(open, at(24 * 60))).toBe('expired');
    expect(ackLinkState({ ...open, status: 'escalated', escalatedAt: at(30) }, at(24 * 60))).toBe(
      'open',
    );
    expect(ackLinkState({ ...open, status: 'acknowledged' }, at(1))).toBe('acknowledged');
    expect(ackLinkState({ ...open, status: 'resolved' }, at(1))).toBe('resolved');
  });
});

describe('who may act on a page', () => {
  const rotation = { createdById: 10, memberUserIds: [1, 2, 11] };
  const open = { status: 'triggered' as PageStatus, pagedById: 20, targetUserId: 1 };
  const actor = (
    id: number,
    ...roles: ('admin' | 'manager' | 'on-call' | 'incident_manager')[]
  ) => ({
    id,
    roles,
  });

  test.each([
    ['the recipient', actor(1, 'on-call'), true, true, true],
    ['another member', actor(2, 'on-call'), false, false, false],
    ['the pager (incident manager)', actor(20, 'incident_manager'), false, true, true],
    ['another incident manager', actor(21, 'incident_manager'), false, false, true],
    ['an administrator', actor(30, 'admin'), false, true, true],
    ['the creating manager', actor(10, 'manager'), false, true, true],
    ['a manager member', actor(11, 'manager'), false, true, true],
    ['an unrelated manager', actor(12, 'manager'), false, false, false],
  ] as const)('%s: acknowledge %s, resolve %s, escalate %s', (_, who, ack, resolve, escalate) => {
    expect(canAcknowledgePage(who, open)).toBe(ack);
    expect(canResolvePage(who, open, rotation)).toBe(resolve);
    expect(canEscalatePage(who, open, rotation)).toBe(escalate);
  });

  test('an acknowledged page is resolved but not acknowledged or escalated again; a resolved one is done', () => {
    const recipient = actor(1, 'on-call');
    const acknowledged = { ...open, status: 'acknowledged' as const };
    expect(canAcknowledgePage(recipient, acknowledged)).toBe(false);
    expect(canEscalatePage(recipient, acknowledged, rotation)).toBe(false);
    expect(canResolvePage(recipient, acknowledged, rotation)).toBe(true);
    const resolved = { ...open, status: 'resolved' as const };
    expect(canResolvePage(actor(30, 'admin'), resolved, rotation)).toBe(false);
  });
});

describe('pageBackupOf', () => {
  // Ana (1) handed the baton to Ben (2) at 12:00; Cal (3) is another member; Ivy (9) pages.
  const handedOver = (overrides: Partial<LatestHandoff> = {}): LatestHandoff => ({
    fromUserId: 1,
    toUserId: 2,
    kind: 'pass',
    urgent: false,
    occurredAt: paged,
    acknowledgedAt: null,
    ...overrides,
  });
  const facts = (
    overrides: Partial<Parameters<typeof pageBackupOf>[0]> = {},
  ): Parameters<typeof pageBackupOf>[0] => ({
    urgency: 'high',
    pagerId: 9,
    holderId: 2,
    latest: handedOver(),
    memberIds: [1, 2, 3],
    ...overrides,
  });

  test.each([
    ['high, 5 minutes after the handoff: the previous holder', facts(), 5, 1],
    ['medium: the previous holder too', facts({ urgency: 'medium' }), 5, 1],
    ['low urgency keeps the backup out', facts({ urgency: 'low' }), 5, null],
    ['the last minute of the window', facts(), 14.99, 1],
    ['15 minutes after: no backup', facts(), 15, null],
    [
      'an emergency handoff not yet acknowledged: still backup an hour later',
      facts({ latest: handedOver({ urgent: true }) }),
      60,
      1,
    ],
    [
      'an emergency handoff acknowledged: the 15 minutes only',
      facts({ latest: handedOver({ urgent: true, acknowledgedAt: at(1) }) }),
      16,
      null,
    ],
    ['the backup sends the page: no copy to themselves', facts({ pagerId: 1 }), 5, null],
    ['the backup left the rotation', facts({ memberIds: [2, 3] }), 5, null],
    ['a take (nobody handed over)', facts({ latest: handedOver({ fromUserId: null }) }), 5, null],
    ['the baton moved on since: not the holder it went to', facts({ holderId: 3 }), 5, null],
    ['no handoff yet', facts({ latest: null }), 5, null],
  ] as const)('%s', (_, input, minutes, expected) => {
    const backup = pageBackupOf(input, at(minutes), DEFAULT_HANDOFF_TIMINGS);
    expect(backup?.userId ?? null).toBe(expected);
  });

  test('the window follows the deployment: HANDOFF_BACKUP_MINUTES of 45', () => {
    const t = { ...DEFAULT_HANDOFF_TIMINGS, backupMs: 45 * 60_000 };
    expect(pageBackupOf(facts(), at(30), t)).toEqual({ userId: 1, until: at(45) });
    expect(pageBackupOf(facts(), at(45), t)).toBeNull();
  });
});
