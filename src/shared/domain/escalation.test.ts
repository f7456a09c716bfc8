import { describe, expect, test } from 'vitest';
import type { ActiveWindow, EscalationTarget } from '../contracts/escalation-policies';
import { isWithinActiveHours, resolveStep } from './escalation';
import {
  everyone,
  MORGAN,
  PRIYA,
  raised,
  reachable,
  rotation,
  SAM,
  step,
  twoPeople,
  world,
} from './escalation.fixtures';

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
