import { describe, expect, it } from 'vitest';
import { type Schedule, scheduleOf } from './pagerduty-schedules';

/*
 * PagerDuty's schedules in Baton's terms (decision 270), pure: a schedule as GET /schedules/{id}
 * answers it, and the window. The loopback server's renderings are checked in
 * pagerduty-reader.test.ts; these are the mappings and refusals one layer at a time.
 */

const window = { from: new Date('2027-03-01T00:00:00Z'), to: new Date('2027-05-30T00:00:00Z') };

type PdLayer = Schedule['schedule_layers'][number];

const layer = (overrides: Partial<PdLayer> = {}): PdLayer => ({
  id: 'PL1',
  name: 'Layer 1',
  start: '2027-01-04T09:00:00Z',
  end: null,
  rotation_virtual_start: '2027-01-04T09:00:00Z',
  rotation_turn_length_seconds: 86_400,
  users: [{ user: { id: 'A' } }, { user: { id: 'B' } }],
  restrictions: [],
  ...overrides,
});

const schedule = (layers: PdLayer[], timeZone = 'Europe/London'): Schedule => ({
  id: 'PS1',
  name: 'Ops',
  description: null,
  time_zone: timeZone,
  // as PagerDuty answers them: highest first
  schedule_layers: [...layers].reverse(),
  final_schedule: {
    rendered_schedule_entries: [
      { start: '2027-03-01T00:00:00Z', end: '2027-03-02T00:00:00Z', user: { id: 'A' } },
      { start: '2027-03-02T00:00:00Z', end: '2027-03-03T00:00:00Z', user: { id: 'A' } },
    ],
  },
});

const map = (layers: PdLayer[], timeZone?: string) =>
  scheduleOf(schedule(layers, timeZone), [], window);

describe('scheduleOf', () => {
  it('lists layers lowest first, whatever order PagerDuty answers them in', () => {
    const { schedule: s } = map([layer({ name: 'Bottom' }), layer({ name: 'Top' })]);
    expect(s.layers?.map((l) => l.name)).toEqual(['Bottom', 'Top']);
    // back-to-back entries of one person are one shift
    expect(s.rendered).toEqual([
      {
        start: new Date('2027-03-01T00:00:00Z'),
        end: new Date('2027-03-03T00:00:00Z'),
        personSourceId: 'A',
      },
    ]);
  });

  it.each([
    [7 * 86_400, 'weekly', 1],
    [14 * 86_400, 'weekly', 2],
    [3 * 86_400, 'daily', 3],
    [12 * 3600, 'hourly', 12],
    [36 * 3600, 'hourly', 36],
  ])('maps a turn of %i seconds to %s × %i', (seconds, cadence, every) => {
    const { schedule: s } = map([layer({ rotation_turn_length_seconds: seconds })]);
    expect(s.layers?.[0]).toMatchObject({ cadence, cadenceEvery: every });
  });

  it('splits a weekly restriction longer than a day into a window a day, merging equal hours', () => {
    const { schedule: s } = map([
      layer({
        restrictions: [
          // Friday 18:00 for 63 hours: to Monday 09:00
          {
            type: 'weekly_restriction',
            start_day_of_week: 5,
            start_time_of_day: '18:00:00',
            duration_seconds: 63 * 3600,
          },
          // Sunday noon for an hour
          {
            type: 'weekly_restriction',
            start_day_of_week: 7,
            start_time_of_day: '12:00:00',
            duration_seconds: 3600,
          },
        ],
      }),
    ]);
    expect(s.layers?.[0]?.activeWindows).toEqual([
      // Friday and Saturday 18:00 for a whole day each, then Sunday 18:00 to Monday 09:00
      { days: [5, 6], start: '18:00', end: '18:00' },
      { days: [0], start: '18:00', end: '09:00' },
      { days: [0], start: '12:00', end: '13:00' },
    ]);
  });

  it('makes a schedule scheduled when its restrictions need more than 14 windows', () => {
    const restrictions = Array.from({ length: 15 }, (_, i) => ({
      type: 'daily_restriction' as const,
      start_time_of_day: `${String(i).padStart(2, '0')}:00:00`,
      duration_seconds: 1800,
    }));
    const { schedule: s, notes } = map([layer({ restrictions })]);
    expect(s.layers).toBeNull();
    expect(notes[0]?.message).toMatch(
      /^Its layer “Layer 1” has restrictions that need 15 on-duty windows, and a Baton layer has at most 14\./,
    );
  });

  it('makes a schedule scheduled when a restriction is not whole minutes', () => {
    const { schedule: s, notes } = map([
      layer({
        restrictions: [
          { type: 'daily_restriction', start_time_of_day: '09:00:30', duration_seconds: 3600 },
        ],
      }),
    ]);
    expect(s.layers).toBeNull();
    expect(notes[0]).toMatchObject({ level: 'warning', subject: 'Schedule “Ops”' });
  });

  it('keeps a layer that ends after the window, warning that Baton goes on', () => {
    const { schedule: s, notes } = map([layer({ end: '2027-07-01T00:00:00Z' })]);
    expect(s.layers).toHaveLength(1);
    expect(notes).toEqual([
      {
        level: 'warning',
        subject: 'Schedule “Ops” layer “Layer 1”',
        message:
          'It ends on 2027-07-01T00:00:00.000Z in PagerDuty; the Baton layer goes on: remove it by then',
      },
    ]);
  });

  it('leaves out a layer that ended before the window', () => {
    const { schedule: s, notes } = map([
      layer({ name: 'Old', end: '2027-02-01T00:00:00Z' }),
      layer({ name: 'Current' }),
    ]);
    expect(s.layers?.map((l) => l.name)).toEqual(['Current']);
    expect(notes[0]?.message).toBe('It ended before the import window: not imported');
  });

  it('refuses a two-day turn starting inside the window off its turn grid', () => {
    // two-day turns from 4 January 09:00; the layer starts on 2 April at noon: 88 days on, on the
    // grid; on 3 April (89 days) Baton would count from 3 April 09:00, which is not a handover
    const onGrid = map([
      layer({ rotation_turn_length_seconds: 2 * 86_400, start: '2027-04-02T11:00:00Z' }),
    ]);
    expect(onGrid.schedule.layers?.[0]?.startsAt).toEqual(new Date('2027-04-02T11:00:00Z'));
    const offGrid = map([
      layer({ rotation_turn_length_seconds: 2 * 86_400, start: '2027-04-03T11:00:00Z' }),
    ]);
    expect(offGrid.schedule.layers).toBeNull();
  });

  it('keeps PagerDuty’s shifts when the zone is not an IANA zone', () => {
    const { schedule: s, notes } = map([layer()], 'Eastern Time (US & Canada)');
    expect(s.timeZone).toBe('UTC');
    expect(s.layers).toBeNull();
    expect(notes[0]?.message).toMatch(
      /^Its time zone “Eastern Time \(US & Canada\)” is not an IANA time zone/,
    );
  });
});
