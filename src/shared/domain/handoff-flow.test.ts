import { describe, expect, test } from 'vitest';
import {
  acknowledgementDeadline,
  awaitsAcknowledgement,
  backupAfter,
  type FlowInput,
  handoffDue,
  isBoundaryHandedOff,
  isMissedNoticeStale,
  type LatestHandoff,
  notesAuthorId,
  planHandoffFlow,
  planScheduleNotices,
  type ScheduleNoticeInput,
  DEFAULT_HANDOFF_TIMINGS as t,
} from './handoff-flow';
import { handoffsBetween } from './shifts';

const pattern = {
  cadence: 'daily',
  timeZone: 'UTC',
  handoffTime: '09:00',
  handoffWeekday: 1,
} as const;
const B = new Date('2026-03-02T09:00:00Z');
const at = (iso: string) => new Date(iso);
const input = (over: Partial<FlowInput> = {}): FlowInput => ({
  pattern,
  boundary: B,
  lastHandoffAt: at('2026-03-01T09:00:00Z'),
  memberIds: [1, 2, 3],
  holderId: 1,
  ...over,
});

describe('planHandoffFlow', () => {
  test.each([
    ['an hour before: nothing', '2026-03-02T08:00:00Z', []],
    ['at the notice: notice', '2026-03-02T08:30:00Z', ['notify:notice']],
    ['at the boundary: due', '2026-03-02T09:00:00Z', ['notify:due']],
    ['30 minutes late: escalate', '2026-03-02T09:30:00Z', ['notify:escalate']],
    ['59 minutes late: still escalate', '2026-03-02T09:59:00Z', ['notify:escalate']],
    ['60 minutes late: transfer and advance', '2026-03-02T10:00:00Z', ['transfer:1>2', 'advance']],
  ])('%s', (_name, now, expected) => {
    const effects = planHandoffFlow(input(), at(now), t).map((e) =>
      e.kind === 'notify'
        ? `notify:${e.step}`
        : e.kind === 'transfer'
          ? `transfer:${e.fromId}>${e.toId}`
          : e.kind,
    );
    expect(effects).toEqual(expected);
  });

  test('a manual pass from the notice on counts: no transfer, the boundary just passes', () => {
    const handled = input({ lastHandoffAt: at('2026-03-02T08:40:00Z'), holderId: 2 });
    expect(planHandoffFlow(handled, at('2026-03-02T08:50:00Z'), t)).toEqual([]);
    expect(planHandoffFlow(handled, at('2026-03-02T09:00:00Z'), t)).toEqual([
      { kind: 'advance', boundary: B, nextBoundary: at('2026-03-03T09:00:00Z') },
    ]);
  });

  test('a pass before the notice does not count for the boundary', () => {
    expect(isBoundaryHandedOff(B, at('2026-03-02T08:29:00Z'), t)).toBe(false);
    expect(isBoundaryHandedOff(B, at('2026-03-02T08:30:00Z'), t)).toBe(true);
  });

  test('after downtime: one transfer per missed boundary, no stale notices', () => {
    const effects = planHandoffFlow(input(), at('2026-03-05T09:10:00Z'), t);
    expect(
      effects
        .filter((e) => e.kind === 'transfer')
        .map((e) => e.kind === 'transfer' && [e.boundary.toISOString(), e.fromId, e.toId]),
    ).toEqual([
      ['2026-03-02T09:00:00.000Z', 1, 2],
      ['2026-03-03T09:00:00.000Z', 2, 3],
      ['2026-03-04T09:00:00.000Z', 3, 1],
    ]);
    // The 2026-03-05 boundary is 10 minutes old: only its 'due' request goes out.
    expect(effects.at(-1)).toMatchObject({ kind: 'notify', step: 'due', holderId: 1, nextId: 2 });
    expect(effects.filter((e) => e.kind === 'notify')).toHaveLength(1);
  });

  test.each([
    ['who holds the baton', 1],
    ['who does not hold it', null],
  ])('a single member %s: boundaries pass without notices or transfers', (_name, holderId) => {
    // memberIdAfter names no one next for a sole member (decision 120).
    const alone = input({ memberIds: [1], holderId });
    expect(planHandoffFlow(alone, at('2026-03-02T08:45:00Z'), t)).toEqual([]);
    expect(planHandoffFlow(alone, at('2026-03-02T09:00:00Z'), t).map((e) => e.kind)).toEqual([
      'advance',
    ]);
    expect(planHandoffFlow(alone, at('2026-03-02T11:00:00Z'), t).map((e) => e.kind)).toEqual([
      'advance',
    ]);
  });

  test('nobody holds the baton: the first member gets it automatically', () => {
    const effects = planHandoffFlow(input({ holderId: null }), at('2026-03-02T10:00:00Z'), t);
    expect(effects[0]).toMatchObject({ kind: 'transfer', fromId: null, toId: 1 });
  });

  test('a month of weekly boundaries across the New York DST change is handed off once each, at 09:00 local', () => {
    const weekly = {
      cadence: 'weekly',
      timeZone: 'America/New_York',
      handoffTime: '09:00',
      handoffWeekday: 1,
    } as const;
    const first = at('2026-02-23T14:00:00Z');
    const effects = planHandoffFlow(
      { pattern: weekly, boundary: first, lastHandoffAt: null, memberIds: [1, 2], holderId: 1 },
      at('2026-03-24T00:00:00Z'),
      t,
    );
    const transfers = effects
      .filter((e) => e.kind === 'transfer')
      .map((e) => e.boundary.toISOString());
    expect(transfers).toEqual([
      first.toISOString(),
      ...handoffsBetween(weekly, first, at('2026-03-24T00:00:00Z')).map((d) => d.toISOString()),
    ]);
    expect(transfers).toEqual([
      '2026-02-23T14:00:00.000Z',
      '2026-03-02T14:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-16T13:00:00.000Z',
      '2026-03-23T13:00:00.000Z',
    ]);
  });
});

describe('who is told, and when', () => {
  const recipients = (over: Partial<FlowInput>, now: string) =>
    planHandoffFlow(input(over), at(now), t)
      .filter((e) => e.kind === 'notify')
      .map((e) => e.kind === 'notify' && `${e.step}:${e.recipientIds.join(',')}`);

  test.each([
    ['notice goes to the holder and the next person', {}, '2026-03-02T08:30:00Z', ['notice:1,2']],
    ['the boundary asks the holder alone', {}, '2026-03-02T09:00:00Z', ['due:1']],
    ['escalation goes to both', {}, '2026-03-02T09:30:00Z', ['escalate:1,2']],
    [
      'with nobody holding, the next person is asked to take it',
      { holderId: null },
      '2026-03-02T09:05:00Z',
      ['due:1'],
    ],
    [
      'a personal reminder of a day: the holder is told 24 hours ahead, the next person at 30 minutes',
      { noticeLeadMs: { 1: 1440 * 60_000 } },
      '2026-03-01T09:00:00Z',
      ['notice:1'],
    ],
    [
      '... and both once the next person’s own notice time comes',
      { noticeLeadMs: { 1: 1440 * 60_000 } },
      '2026-03-02T08:30:00Z',
      ['notice:1,2'],
    ],
    [
      'a reminder of 15 minutes: the next person is not told at 30 minutes',
      { noticeLeadMs: { 2: 15 * 60_000 } },
      '2026-03-02T08:40:00Z',
      ['notice:1'],
    ],
    [
      'a personal reminder never outlives the boundary: no stale notice after it',
      { noticeLeadMs: { 1: 1440 * 60_000, 2: 1440 * 60_000 } },
      '2026-03-02T09:10:00Z',
      ['due:1'],
    ],
  ] as const)('%s', (_name, over, now, expected) => {
    expect(recipients(over as Partial<FlowInput>, now)).toEqual(expected);
  });

  test('a manual pass long before the notice window does not handle the boundary, even after a personal reminder', () => {
    const passedEarly = input({
      noticeLeadMs: { 1: 1440 * 60_000 },
      holderId: 2,
      lastHandoffAt: at('2026-03-01T12:00:00Z'),
    });
    expect(planHandoffFlow(passedEarly, at('2026-03-02T10:00:00Z'), t)[0]).toMatchObject({
      kind: 'transfer',
      fromId: 2,
      toId: 3,
    });
  });
});

describe('acknowledgement and backup', () => {
  const latest = (over: Partial<LatestHandoff> = {}): LatestHandoff => ({
    fromUserId: 1,
    toUserId: 2,
    kind: 'pass',
    urgent: false,
    occurredAt: at('2026-03-02T09:00:00Z'),
    acknowledgedAt: null,
    ...over,
  });

  test.each([
    ['pass', true],
    ['reassign', true],
    ['auto', true],
    ['schedule', true],
    ['coverage', true],
    ['coverage_end', true],
    ['member_removed', true],
    ['take', false],
  ])('%s awaits acknowledgement: %s', (kind, expected) => {
    expect(awaitsAcknowledgement(kind)).toBe(expected);
  });

  test.each([
    [
      '14 minutes after a handoff the previous holder is backup',
      latest(),
      2,
      '2026-03-02T09:14:00Z',
      { userId: 1, until: at('2026-03-02T09:15:00Z') },
    ],
    ['at 15 minutes no longer', latest(), 2, '2026-03-02T09:15:00Z', null],
    [
      'an emergency handoff keeps them backup until it is acknowledged',
      latest({ urgent: true }),
      2,
      '2026-03-02T15:00:00Z',
      { userId: 1, until: null },
    ],
    [
      'an acknowledged emergency handoff: the usual 15 minutes',
      latest({ urgent: true, acknowledgedAt: at('2026-03-02T09:05:00Z') }),
      2,
      '2026-03-02T09:20:00Z',
      null,
    ],
    [
      'no previous holder, no backup',
      latest({ fromUserId: null }),
      2,
      '2026-03-02T09:01:00Z',
      null,
    ],
    ['the baton moved on since: no backup', latest(), 3, '2026-03-02T09:01:00Z', null],
    ['no handoff yet: no backup', null, 2, '2026-03-02T09:01:00Z', null],
  ] as const)('%s', (_name, handoff, holder, now, expected) => {
    expect(backupAfter(handoff, holder, at(now), t)).toEqual(expected);
  });

  test('the acknowledgement deadline is 30 minutes; a miss is stale once another window has passed', () => {
    const occurred = at('2026-03-02T09:00:00Z');
    expect(acknowledgementDeadline(occurred, t)).toEqual(at('2026-03-02T09:30:00Z'));
    expect(isMissedNoticeStale(occurred, at('2026-03-02T09:59:00Z'), t)).toBe(false);
    expect(isMissedNoticeStale(occurred, at('2026-03-02T10:00:00Z'), t)).toBe(true);
  });
});

describe('handoffDue', () => {
  const fixed = { type: 'fixed', suspended: false, holderUserId: 1, nextHandoffAt: B };
  const handoff = (kind: string, iso: string) => ({ kind, occurredAt: at(iso) });

  test('from the boundary until the baton moves, with the escalation and transfer times', () => {
    expect(handoffDue(fixed, null, at('2026-03-02T08:59:59Z'), t)).toBeNull();
    expect(handoffDue(fixed, handoff('pass', '2026-03-01T09:00:00Z'), B, t)).toEqual({
      boundary: B,
      escalateAt: at('2026-03-02T09:30:00Z'),
      autoTransferAt: at('2026-03-02T10:00:00Z'),
    });
  });

  test.each([
    ['a scheduled rotation', { ...fixed, type: 'scheduled' }, null],
    ['a suspended rotation', { ...fixed, suspended: true }, null],
    ['nobody holding the baton', { ...fixed, holderUserId: null }, null],
    ['no boundary', { ...fixed, nextHandoffAt: null }, null],
    ['a pass in the notice window', fixed, handoff('pass', '2026-03-02T08:40:00Z')],
    ['a take after the boundary', fixed, handoff('take', '2026-03-02T09:10:00Z')],
    ['a running coverage window', fixed, handoff('coverage', '2026-03-02T07:00:00Z')],
  ])('nothing is due with %s', (_label, rotation, latest) => {
    expect(handoffDue(rotation, latest, at('2026-03-02T09:15:00Z'), t)).toBeNull();
  });

  test('a pass before the notice window, or a coverage end, does not handle the boundary', () => {
    const now = at('2026-03-02T09:15:00Z');
    expect(handoffDue(fixed, handoff('pass', '2026-03-02T08:29:00Z'), now, t)).not.toBeNull();
    expect(
      handoffDue(fixed, handoff('coverage_end', '2026-03-02T08:50:00Z'), now, t),
    ).not.toBeNull();
  });
});

describe('planScheduleNotices', () => {
  // Ana (1) 09:00-17:00, Ben (2) 17:00-21:00, a gap, Cal (3) from 23:00; Ana holds the baton.
  const entry = (userId: number, start: string, end: string) => ({
    userId,
    start: at(`2026-03-02T${start}:00Z`),
    end: at(`2026-03-02T${end}:00Z`),
  });
  const schedule = (over: Partial<ScheduleNoticeInput> = {}): ScheduleNoticeInput => ({
    entries: [entry(1, '09', '17'), entry(2, '17', '21'), entry(3, '23', '23:59')],
    running: [],
    holderId: 1,
    memberIds: [1, 2, 3],
    ...over,
  });
  const plan = (over: Partial<ScheduleNoticeInput>, nowIso: string) =>
    planScheduleNotices(schedule(over), at(`2026-03-02T${nowIso}:00Z`), t).map((n) => [
      n.at.toISOString().slice(11, 16),
      n.fromId,
      n.toId,
      n.recipientIds,
    ]);

  test.each([
    ['nothing before the 30-minute lead', {}, '16:29', []],
    [
      'the end of Ana’s entry: Ana and Ben, 30 minutes before',
      {},
      '16:30',
      [['17:00', 1, 2, [1, 2]]],
    ],
    ['still due until the change', {}, '16:59', [['17:00', 1, 2, [1, 2]]]],
    ['nothing once the change is reached', {}, '17:00', []],
    [
      'before a gap only the outgoing holder is told',
      { holderId: 2 },
      '20:30',
      [['21:00', 2, null, [2]]],
    ],
    [
      'after a gap the incoming one is told before their start',
      { holderId: null },
      '22:30',
      [['23:00', null, 3, [3]]],
    ],
    [
      'a baton passed by hand: its holder is the one told',
      { holderId: 3 },
      '16:45',
      [['17:00', 3, 2, [3, 2]]],
    ],
    ['the schedule names the holder already: no change, no notice', { holderId: 2 }, '16:45', []],
    [
      'an entry of someone who is not a member names nobody',
      { memberIds: [1, 3] },
      '16:45',
      [['17:00', 1, null, [1]]],
    ],
    [
      'a running coverage window holds the baton through the change',
      {
        running: [
          { userId: 3, start: at('2026-03-02T16:00:00Z'), end: at('2026-03-02T18:00:00Z') },
        ],
      },
      '16:45',
      [],
    ],
    [
      'each at their own lead: Ben on 2 hours, Ana on 15 minutes',
      { noticeLeadMs: { 1: 15 * 60_000, 2: 120 * 60_000 } },
      '15:00',
      [['17:00', 1, 2, [2]]],
    ],
    [
      'each at their own lead, later: both',
      { noticeLeadMs: { 1: 15 * 60_000, 2: 120 * 60_000 } },
      '16:45',
      [['17:00', 1, 2, [1, 2]]],
    ],
    [
      'a day-ahead reminder sees every change within the day',
      { noticeLeadMs: { 2: 1440 * 60_000 } },
      '08:00',
      [
        ['17:00', 1, 2, [2]],
        ['21:00', 2, null, [2]],
      ],
    ],
    ['no entries: nothing', { entries: [] }, '16:45', []],
  ] as const)('%s', (_, over, nowIso, expected) => {
    expect(plan(over as Partial<ScheduleNoticeInput>, nowIso)).toEqual(expected);
  });
});

describe('notesAuthorId (decision 187)', () => {
  test.each([
    ['pass', 7, 7],
    ['coverage', 7, 7],
    ['reassign', 7, null],
    ['auto', 7, null],
    ['coverage_end', 7, null],
    ['take', null, null],
    ['pass', null, null],
  ] as const)('%s from %s: %s', (kind, fromUserId, expected) => {
    expect(notesAuthorId({ kind, fromUserId })).toBe(expected);
  });
});
