import { describe, expect, it } from 'vitest';
import {
  type FakeAccount,
  type FakeShift,
  finalShifts,
  grafanaAccount,
} from '../../../../tests/setup/fake-grafana-oncall';
import { type GrafanaShift, shiftLayer } from './grafana-oncall-shifts';
import { compareRenderings, renderSchedule } from './snapshot-rendering';
import type { SourceSchedule } from './source-snapshot';

const HOUR = 3600;
const DAY = 24 * HOUR;
const base: GrafanaShift = {
  id: 'O1',
  name: 'Primary',
  type: 'rolling_users',
  time_zone: null,
  level: 0,
  start: '2027-01-04T08:00:00',
  duration: 7 * DAY,
  frequency: 'weekly',
  interval: 1,
  until: null,
  week_start: 'MO',
  by_day: null,
  rolling_users: [['a'], ['b']],
};
const zone = 'Europe/Amsterdam';
const refusalOf = (over: Partial<GrafanaShift>) => {
  const m = shiftLayer({ ...base, ...over }, zone);
  return 'refusal' in m ? m.refusal : null;
};

describe('shiftLayer', () => {
  it('makes a shift lasting its period a plain layer and a shorter one an on-duty window', () => {
    expect(shiftLayer(base, zone)).toEqual({
      layer: {
        name: 'Primary',
        memberSourceIds: ['a', 'b'],
        cadence: 'weekly',
        cadenceEvery: 1,
        handoffTime: '09:00',
        handoffWeekday: 1,
        activeWindows: [],
        startsAt: new Date('2027-01-04T08:00:00Z'),
      },
    });
    const hourly = shiftLayer(
      { ...base, frequency: 'hourly', interval: 12, duration: 12 * HOUR },
      zone,
    );
    expect('layer' in hourly && [hourly.layer.cadence, hourly.layer.cadenceEvery]).toEqual([
      'hourly',
      12,
    ]);
    const evening = shiftLayer(
      { ...base, frequency: 'daily', start: '2027-01-04T21:00:00', duration: 10 * HOUR },
      zone,
    );
    expect('layer' in evening && evening.layer.activeWindows).toEqual([
      { days: [0, 1, 2, 3, 4, 5, 6], start: '22:00', end: '08:00' },
    ]);
    const weekend = shiftLayer(
      { ...base, start: '2027-01-08T17:00:00', duration: 2 * DAY + 15 * HOUR },
      zone,
    );
    expect('layer' in weekend && weekend.layer.activeWindows).toEqual([
      { days: [5], start: '18:00', end: '00:00' },
      { days: [6], start: '00:00', end: '00:00' },
      { days: [0], start: '00:00', end: '00:00' },
      { days: [1], start: '00:00', end: '09:00' },
    ]);
  });

  it('rolls the turn order from start_rotation_from_user_index', () => {
    const m = shiftLayer(
      { ...base, rolling_users: [['a'], ['b'], ['c']], start_rotation_from_user_index: 2 },
      zone,
    );
    expect('layer' in m && m.layer.memberSourceIds).toEqual(['c', 'a', 'b']);
  });

  it('says why a shift cannot be a layer', () => {
    expect(refusalOf({ frequency: 'monthly' })).toBe(
      "it repeats monthly; Baton's turns are hours, days or weeks",
    );
    expect(refusalOf({ rolling_users: [['a', 'b'], ['c']] })).toMatch(
      /one person on call per turn/,
    );
    expect(refusalOf({ rolling_users: [] })).toBe('it has no users');
    expect(refusalOf({ until: '2027-04-01T00:00:00' })).toBe(
      'it ends on 2027-04-01T00:00:00 (UTC) and a Baton layer does not end',
    );
    expect(refusalOf({ time_zone: 'America/Chicago' })).toMatch(
      /time zone America\/Chicago is not the schedule's/,
    );
    expect(refusalOf({ rotation_start: '2027-02-01T08:00:00' })).toMatch(/rotation restarts/);
    expect(refusalOf({ duration: 8 * DAY })).toMatch(/overlap/);
    expect(refusalOf({ duration: 7 * DAY - 30 })).toMatch(/not a whole number of minutes/);
    expect(refusalOf({ start: '2027-01-04T08:00:30' })).toMatch(/not a whole minute/);
    expect(refusalOf({ frequency: 'daily', interval: 2, duration: 8 * HOUR })).toMatch(
      /on-duty window/,
    );
    expect(refusalOf({ frequency: 'hourly', interval: 12, duration: 8 * HOUR })).toMatch(
      /on-duty window/,
    );
    expect(refusalOf({ frequency: 'weekly', by_day: ['MO', 'TU'] })).toBe(
      'it repeats weekly on chosen days (MO, TU)',
    );
    expect(refusalOf({ by_monthday: [1] })).toMatch(/days of the month/);
    // a weekly rule on every day runs a shift each day, handed on weekly: not a weekly turn
    expect(
      refusalOf({ duration: 8 * HOUR, by_day: ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] }),
    ).toBe('it repeats weekly on chosen days (SU, MO, TU, WE, TH, FR, SA)');
    expect(refusalOf({ by_day: ['MO'] })).toBeNull();
    expect(refusalOf({ frequency: 'hourly', duration: HOUR, by_day: ['MO'] })).toBe(
      'it repeats hourly on chosen days (MO)',
    );
    // Monday, Wednesday and Friday with two people: Grafana gives a, b, a, then b on Monday;
    // Baton's daily turns would give a, a, a, then a again
    expect(
      refusalOf({ frequency: 'daily', duration: 8 * HOUR, by_day: ['MO', 'WE', 'FR'] }),
    ).toMatch(/Grafana passes the turn on each shift while Baton passes it each day/);
    expect(refusalOf({ frequency: 'daily', duration: 8 * HOUR, by_day: ['TU', 'WE'] })).toMatch(
      /first shift is on a day it does not run on/,
    );
  });
});

/** A small deterministic generator, so a failure names its case and can be run again. */
function generator(seed: number) {
  // mulberry32
  let s = seed >>> 0;
  return (n: number) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % 4_294_967_296) % n;
  };
}

const from = new Date('2027-03-01T00:00:00Z');
const to = new Date('2027-05-30T00:00:00Z');
const DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const pad = (n: number) => String(n).padStart(2, '0');

/** check maps one shift; when it is a layer, Baton's rendering must be the loopback OnCall's. */
function check(shift: FakeShift, tz: string, people: number): 'layer' | 'refused' {
  const mapping = shiftLayer(shift, tz, { from, to });
  if ('refusal' in mapping) return 'refused';
  const template = grafanaAccount();
  const account: FakeAccount = {
    ...template,
    users: Array.from({ length: people }, (_, p) => ({
      ...(template.users[0] as FakeAccount['users'][number]),
      id: `u${p}`,
    })),
    schedules: [
      { ...(template.schedules[0] as FakeAccount['schedules'][number]), id: 'SGEN', time_zone: tz },
    ],
    shifts: [shift],
  };
  const rendered = finalShifts(account, 'SGEN', from.getTime(), to.getTime()).map((f) => ({
    personSourceId: f.user_pk,
    start: new Date(f.shift_start),
    end: new Date(f.shift_end),
  }));
  const schedule: SourceSchedule = {
    sourceId: 'SGEN',
    name: 'Generated',
    timeZone: tz,
    layers: [mapping.layer],
    overrides: [],
    rendered,
  };
  const differences = compareRenderings(rendered, renderSchedule(schedule, from, to), from, to);
  expect({ shift, differences: differences.slice(0, 3) }).toEqual({ shift, differences: [] });
  return 'layer';
}

function generated(
  i: number,
  pick: (n: number) => number,
  over: (people: number) => Partial<FakeShift>,
): { shift: FakeShift; tz: string; people: number } {
  const people = 1 + pick(4);
  const tz = (['Europe/Amsterdam', 'America/Chicago'] as const)[pick(2)] as string;
  const start = `2027-01-${pad(4 + pick(14))}T${pad(pick(24))}:${pick(2) ? '30' : '00'}:00`;
  const shift: FakeShift = {
    ...(grafanaAccount().shifts[0] as FakeShift),
    id: `OGEN${i}`,
    name: `Generated ${i}`,
    schedule: 'SGEN',
    start,
    rotation_start: start,
    rolling_users: Array.from({ length: people }, (_, p) => [`u${p}`]),
    start_rotation_from_user_index: pick(people),
    ...over(people),
  };
  shift.rotation_start = shift.start;
  return { shift, tz, people };
}

describe('shiftLayer against Grafana OnCall’s rendering', () => {
  it('renders every repeating shift it accepts as the loopback OnCall does, over 90 days across DST', () => {
    const pick = generator(272);
    const seen = { layer: 0, refused: 0 };
    for (let i = 0; i < 80; i++) {
      const frequency = (['hourly', 'daily', 'weekly'] as const)[pick(3)] as 'daily';
      const interval = 1 + pick(frequency === ('hourly' as string) ? 12 : 3);
      const unit =
        frequency === ('hourly' as string) ? HOUR : frequency === 'daily' ? DAY : 7 * DAY;
      const whole = pick(2) === 0;
      const duration = whole
        ? interval * unit
        : (1 + pick(Math.max(1, (interval * unit) / 1800 - 1))) * 1800;
      const { shift, tz, people } = generated(i, pick, () => ({ frequency, interval, duration }));
      seen[check(shift, tz, people)]++;
    }
    expect(seen.layer).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
  });

  it('renders every daily shift on chosen days it accepts as the loopback OnCall does', () => {
    const pick = generator(34);
    const seen = { layer: 0, refused: 0 };
    for (let i = 0; i < 80; i++) {
      const { shift, tz, people } = generated(i, pick, () => ({
        frequency: 'daily',
        interval: 1,
        duration: (1 + pick(47)) * 1800,
      }));
      const first = new Date(`${shift.start}Z`);
      const firstDay = DAYS[
        new Date(first.getTime() + (tz === 'America/Chicago' ? -6 : 1) * 3_600_000).getUTCDay()
      ] as string;
      shift.by_day = [...new Set([firstDay, ...DAYS.filter(() => pick(2) === 0)])];
      seen[check(shift, tz, people)]++;
    }
    expect(seen.layer).toBeGreaterThan(15);
    expect(seen.refused).toBeGreaterThan(15);
  });
});
