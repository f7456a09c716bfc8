import { describe, expect, it } from 'vitest';
import { nameInSummary, readIcs, readIcsContent } from './ics-reader';
import { compareRenderings, renderSchedule } from './snapshot-rendering';
import { ImportSourceError, type SourceShift, type SourceSnapshot } from './source-snapshot';

// The window starts on Monday 1 March 2027 and crosses the US (14 March) and EU (28 March)
// spring changes.
const from = new Date('2027-03-01T12:00:00Z');
const to = new Date(from.getTime() + 90 * 86_400_000);
const window = { from, to };

const DAY = 86_400_000;
const utc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const cal = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

function read(text: string): SourceSnapshot {
  const snapshot = readIcsContent(text, window);
  for (const schedule of snapshot.schedules) {
    expect(schedule.layers).toBeNull();
    expect(
      compareRenderings(schedule.rendered, renderSchedule(schedule, from, to), from, to),
    ).toEqual([]);
  }
  return snapshot;
}

const rendered = (s: SourceSnapshot) =>
  (s.schedules[0]?.rendered ?? []).map((r) => ({
    start: r.start.toISOString(),
    end: r.end.toISOString(),
    who: r.personSourceId,
  }));

/** whoAt is who a rendering has on call at an instant (null: nobody). */
const whoAt = (shifts: readonly SourceShift[], at: string) =>
  shifts.find((s) => s.start.getTime() <= Date.parse(at) && s.end.getTime() > Date.parse(at))
    ?.personSourceId ?? null;

function refusal(text: string): string {
  try {
    readIcsContent(text, window);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as ImportSourceError).kind).toBe('input');
    return (error as ImportSourceError).message;
  }
  throw new Error('the file was read');
}

/**
 * A PagerDuty schedule feed as its WebCal export has it: the final schedule as single events in
 * UTC (DTSTART;VALUE=DATE-TIME), a bare ATTENDEE address, and "On Call - Name - Schedule".
 * Weekly turns hand off on Monday at 09:00 New York time, so the UTC times move on 14 March.
 */
function pagerDutyFeed(): string {
  const people = [
    ['ada@example.com', 'Ada Lovelace'],
    ['grace@example.com', 'Grace Hopper'],
  ] as const;
  const lines = [
    'BEGIN:VCALENDAR',
    'PRODID;X-RICAL-TZSOURCE=TZINFO:-//com.denhaven2/NONSGML ri_cal gem//EN',
    'CALSCALE:GREGORIAN',
    'VERSION:2.0',
    'X-WR-CALNAME:On Call Schedule for Platform Primary',
  ];
  // Mondays 09:00 in New York: 14:00 UTC before 14 March, 13:00 after.
  const mondays: Date[] = [];
  for (
    let t = Date.parse('2027-02-22T00:00:00Z');
    t < Date.parse('2027-06-15T00:00:00Z');
    t += 7 * DAY
  ) {
    mondays.push(new Date(t + (t < Date.parse('2027-03-14T00:00:00Z') ? 14 : 13) * 3_600_000));
  }
  for (let i = 0; i < mondays.length - 1; i++) {
    const [email, name] = people[i % 2] as readonly [string, string];
    lines.push(
      'BEGIN:VEVENT',
      `DTEND;VALUE=DATE-TIME:${utc(mondays[i + 1] as Date)}`,
      `DTSTART;VALUE=DATE-TIME:${utc(mondays[i] as Date)}`,
      `ATTENDEE:${email}`,
      `UID:Q${i}ABCDEF`,
      'URL:https://acme.pagerduty.com/schedules#PABC123',
      `SUMMARY:On Call - ${name} - Platform Primary`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return cal(...lines);
}

/**
 * An Opsgenie-style export: times in the schedule's zone with TZID and a VTIMEZONE, attendees as
 * mailto addresses with a CN, an ORGANIZER, and repeating events: weekday days for Ada (RRULE,
 * one EXDATE, one moved instance), nights every day for Bob.
 */
const OPSGENIE = cal(
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Opsgenie//Schedule export//EN',
  'X-WR-CALNAME:Payments_schedule',
  'X-WR-TIMEZONE:Europe/Berlin',
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'X-LIC-LOCATION:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
  'BEGIN:VEVENT',
  'UID:days-ada@opsgenie',
  'SUMMARY:Payments_schedule - Ada Lovelace',
  'ORGANIZER;CN=Opsgenie:mailto:noreply@opsgenie.net',
  'ATTENDEE;CN="Lovelace, Ada";ROLE=REQ-PARTICIPANT:mailto:Ada@Example.com',
  'DTSTART;TZID=Europe/Berlin:20270301T090000',
  'DTEND;TZID=Europe/Berlin:20270301T170000',
  'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
  'EXDATE;TZID=Europe/Berlin:20270310T090000',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:days-ada@opsgenie',
  'RECURRENCE-ID;TZID=Europe/Berlin:20270311T090000',
  'SUMMARY:Payments_schedule - Ada Lovelace',
  'ATTENDEE;CN="Lovelace, Ada":mailto:ada@example.com',
  'DTSTART;TZID=Europe/Berlin:20270311T120000',
  'DTEND;TZID=Europe/Berlin:20270311T170000',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:nights-bob@opsgenie',
  'SUMMARY:Payments_schedule - Bob Night',
  'ATTENDEE;CN=Bob Night:mailto:bob@example.com',
  'DTSTART;TZID=Europe/Berlin:20270220T170000',
  'DTEND;TZID=Europe/Berlin:20270221T090000',
  'RRULE:FREQ=DAILY;UNTIL=20270520T150000Z',
  'END:VEVENT',
  'END:VCALENDAR',
);

/**
 * A Grafana OnCall schedule export: the final shifts as single UTC events whose SUMMARY is the
 * user's name, with PRIORITY and UID, no attendee; a shift that was removed stays as a cancelled
 * event whose end is its start.
 */
const GRAFANA = cal(
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Grafana Labs//Grafana On-Call//',
  'CALSCALE:GREGORIAN',
  'X-WR-CALNAME:Search on-call',
  'X-WR-TIMEZONE:UTC',
  'BEGIN:VEVENT',
  'SUMMARY:alice',
  'DTSTART:20270301T000000Z',
  'DTEND:20270301T120000Z',
  'DTSTAMP:20270220T000000Z',
  'PRIORITY:0',
  'UID:SX1-202703010000-U1',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'SUMMARY:bob',
  'DTSTART:20270301T120000Z',
  'DTEND:20270302T000000Z',
  'DTSTAMP:20270220T000000Z',
  'PRIORITY:0',
  'UID:SX1-202703011200-U2',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'SUMMARY:alice',
  'DTSTART:20270302T000000Z',
  'DTEND:20270302T120000Z',
  'DTSTAMP:20270220T000000Z',
  'PRIORITY:1',
  'UID:OV1-202703020000-U1',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'SUMMARY:bob',
  'DTSTART:20270303T000000Z',
  'DTEND:20270303T000000Z',
  'STATUS:CANCELLED',
  'UID:SX1-202703030000-U2',
  'END:VEVENT',
  'END:VCALENDAR',
);

describe('readIcs', () => {
  it('reads a PagerDuty feed: attendees by email, names from the summary, UTC across the US change', async () => {
    const snapshot = await readIcs({
      content: pagerDutyFeed(),
      window,
      get: async () => {
        throw new Error('a file is not fetched');
      },
    });
    read(pagerDutyFeed());
    expect(snapshot.source).toBe('ics');
    expect(snapshot.account).toBe('On Call Schedule for Platform Primary');
    expect(snapshot.people).toEqual([
      { sourceId: 'ada@example.com', name: 'Ada Lovelace', email: 'ada@example.com' },
      { sourceId: 'grace@example.com', name: 'Grace Hopper', email: 'grace@example.com' },
    ]);
    const schedule = snapshot.schedules[0];
    expect(schedule?.layers).toBeNull();
    expect(schedule?.timeZone).toBe('UTC');
    const shifts = rendered(snapshot);
    // The turn under way at the window's start is clipped to it.
    expect(shifts[0]).toEqual({
      start: '2027-03-01T12:00:00.000Z',
      end: '2027-03-01T14:00:00.000Z',
      who: 'ada@example.com',
    });
    expect(shifts).toContainEqual({
      start: '2027-03-08T14:00:00.000Z',
      end: '2027-03-15T13:00:00.000Z',
      who: 'ada@example.com',
    });
    expect(shifts.at(-1)?.end).toBe(to.toISOString());
    // Back to back all through the window.
    for (let i = 1; i < shifts.length; i++) {
      expect(shifts[i]?.start).toBe(shifts[i - 1]?.end);
    }
    expect(snapshot.notes).toContainEqual(
      expect.objectContaining({
        level: 'warning',
        message: expect.stringContaining(
          '“On Call Schedule for Platform Primary” becomes a scheduled rotation whose entries are its events from 2027-03-01 to 2027-05-30',
        ),
      }),
    );
  });

  it('reads an Opsgenie-style export: TZID, RRULE, EXDATE, a moved instance and the EU change', () => {
    const snapshot = read(OPSGENIE);
    expect(snapshot.people).toEqual([
      { sourceId: 'ada@example.com', name: 'Lovelace, Ada', email: 'ada@example.com' },
      { sourceId: 'bob@example.com', name: 'Bob Night', email: 'bob@example.com' },
    ]);
    expect(snapshot.schedules[0]?.timeZone).toBe('Europe/Berlin');
    const shifts = snapshot.schedules[0]?.rendered ?? [];
    // Winter: 09:00–17:00 in Berlin is 08:00–16:00 UTC.
    expect(whoAt(shifts, '2027-03-02T08:00:00Z')).toBe('ada@example.com');
    expect(whoAt(shifts, '2027-03-02T07:59:00Z')).toBe('bob@example.com');
    expect(whoAt(shifts, '2027-03-02T16:00:00Z')).toBe('bob@example.com');
    // EXDATE: nobody on 10 March's day; the moved instance of 11 March runs 12:00–17:00.
    expect(whoAt(shifts, '2027-03-10T10:00:00Z')).toBeNull();
    expect(whoAt(shifts, '2027-03-11T10:00:00Z')).toBeNull();
    expect(whoAt(shifts, '2027-03-11T11:00:00Z')).toBe('ada@example.com');
    // Weekends' days have nobody.
    expect(whoAt(shifts, '2027-03-06T10:00:00Z')).toBeNull();
    // The night across the change (27–28 March) runs 17:00 CET to 09:00 CEST: 15 hours.
    const night = shifts.find((s) => s.start.toISOString() === '2027-03-27T16:00:00.000Z');
    expect(night?.end.toISOString()).toBe('2027-03-28T07:00:00.000Z');
    // Summer: 09:00 in Berlin is 07:00 UTC.
    expect(whoAt(shifts, '2027-03-29T07:00:00Z')).toBe('ada@example.com');
    expect(whoAt(shifts, '2027-03-29T06:59:00Z')).toBe('bob@example.com');
    // UNTIL 20 May 15:00 UTC (17:00 in Berlin) takes that evening's night and no later one.
    expect(whoAt(shifts, '2027-05-20T20:00:00Z')).toBe('bob@example.com');
    expect(whoAt(shifts, '2027-05-21T20:00:00Z')).toBeNull();
  });

  it('reads a Grafana OnCall export: names without emails, cancelled shifts left out', () => {
    const snapshot = read(GRAFANA);
    expect(snapshot.people).toEqual([
      { sourceId: 'name:alice', name: 'alice', email: null },
      { sourceId: 'name:bob', name: 'bob', email: null },
    ]);
    expect(rendered(snapshot)).toEqual([
      { start: '2027-03-01T12:00:00.000Z', end: '2027-03-02T00:00:00.000Z', who: 'name:bob' },
      { start: '2027-03-02T00:00:00.000Z', end: '2027-03-02T12:00:00.000Z', who: 'name:alice' },
    ]);
    const warnings = snapshot.notes.filter((n) => n.level === 'warning').map((n) => n.message);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^“alice” \(first on line 7\) has no email in the calendar.*cannot be matched and need one/,
      ),
    );
    expect(snapshot.notes).toContainEqual(
      expect.objectContaining({
        level: 'info',
        message: '1 cancelled event (STATUS:CANCELLED) put nobody on call and is left out.',
      }),
    );
  });

  it('matches a name-only event to the attendee of the same name, and unfolds folded lines', () => {
    const snapshot = read(
      cal(
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'SUMMARY:On Call - Ada Lovelace',
        'ATTENDEE;CN=Ada Lovelace:mailto:ada@example.com',
        'DTSTART:20270302T000000Z',
        'DTEND:20270303T000000Z',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'SUMMARY:On Call - Ada Lo',
        ' velace - Primary',
        'DTSTART:20270303T000000Z',
        'DTEND:20270304T000000Z',
        'END:VEVENT',
        'END:VCALENDAR',
      ),
    );
    expect(snapshot.people).toEqual([
      { sourceId: 'ada@example.com', name: 'Ada Lovelace', email: 'ada@example.com' },
    ]);
    expect(rendered(snapshot)).toEqual([
      {
        start: '2027-03-02T00:00:00.000Z',
        end: '2027-03-04T00:00:00.000Z',
        who: 'ada@example.com',
      },
    ]);
    expect(snapshot.notes.filter((n) => n.level === 'warning')).toHaveLength(1);
  });

  it('keeps a zoned event to its wall-clock times across the US change', () => {
    const snapshot = read(
      cal(
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'SUMMARY:On Call - Ada',
        'DTSTART;TZID=America/New_York:20270313T090000',
        'DTEND;TZID=America/New_York:20270314T090000',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'SUMMARY:On Call - Grace',
        'DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20270401T090000',
        'DURATION:P7D',
        'RRULE:FREQ=WEEKLY;COUNT=3',
        'EXDATE;VALUE=DATE:20270415',
        'END:VEVENT',
        'END:VCALENDAR',
      ),
    );
    expect(snapshot.schedules[0]?.timeZone).toBe('America/New_York');
    expect(rendered(snapshot)).toEqual([
      // 09:00 EST to 09:00 EDT: 23 hours.
      { start: '2027-03-13T14:00:00.000Z', end: '2027-03-14T13:00:00.000Z', who: 'name:ada' },
      // Two weeks (the third, 15 April, is taken out by date), the wall-clock days of DURATION.
      { start: '2027-04-01T13:00:00.000Z', end: '2027-04-15T13:00:00.000Z', who: 'name:grace' },
    ]);
  });

  it('reads all-day events as midnight to midnight in the calendar zone', () => {
    const snapshot = read(
      cal(
        'BEGIN:VCALENDAR',
        'X-WR-TIMEZONE:America/New_York',
        'BEGIN:VEVENT',
        'SUMMARY:Ada on call',
        'ATTENDEE:mailto:ada@example.com',
        'DTSTART;VALUE=DATE:20270315',
        'DTEND;VALUE=DATE:20270317',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'SUMMARY:Grace',
        'ATTENDEE:mailto:grace@example.com',
        'DTSTART;VALUE=DATE:20270317',
        'END:VEVENT',
        'END:VCALENDAR',
      ),
    );
    expect(rendered(snapshot)).toEqual([
      {
        start: '2027-03-15T04:00:00.000Z',
        end: '2027-03-17T04:00:00.000Z',
        who: 'ada@example.com',
      },
      {
        start: '2027-03-17T04:00:00.000Z',
        end: '2027-03-18T04:00:00.000Z',
        who: 'grace@example.com',
      },
    ]);
    expect(snapshot.notes).toContainEqual(
      expect.objectContaining({
        message:
          "All-day events run from midnight to midnight in America/New_York, the calendar's time zone.",
      }),
    );
  });

  it('puts the later-starting event on call where two overlap, and says so', () => {
    const snapshot = read(
      cal(
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'SUMMARY:Ada',
        'DTSTART:20270302T000000Z',
        'DTEND:20270303T000000Z',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'SUMMARY:Grace',
        'DTSTART:20270302T060000Z',
        'DTEND:20270302T080000Z',
        'END:VEVENT',
        'END:VCALENDAR',
      ),
    );
    expect(rendered(snapshot)).toEqual([
      { start: '2027-03-02T00:00:00.000Z', end: '2027-03-02T06:00:00.000Z', who: 'name:ada' },
      { start: '2027-03-02T06:00:00.000Z', end: '2027-03-02T08:00:00.000Z', who: 'name:grace' },
      { start: '2027-03-02T08:00:00.000Z', end: '2027-03-03T00:00:00.000Z', who: 'name:ada' },
    ]);
    expect(snapshot.notes).toContainEqual(
      expect.objectContaining({
        level: 'warning',
        message: expect.stringMatching(
          /^1 time two events overlap \(Ada and Grace from 2027-03-02T06:00:00\.000Z\)/,
        ),
      }),
    );
  });

  it('leaves out an event that names nobody or lasts no time, with a note naming its line', () => {
    const snapshot = read(
      cal(
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'DTSTART:20270302T000000Z',
        'DTEND:20270303T000000Z',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'SUMMARY:Ada',
        'DTSTART:20270304T000000Z',
        'END:VEVENT',
        'END:VCALENDAR',
      ),
    );
    expect(rendered(snapshot)).toEqual([]);
    expect(snapshot.notes.slice(0, 2).map((n) => n.message)).toEqual([
      'Line 2: the event has no attendee and no summary, so it names nobody to put on call: it is left out.',
      'Line 6: the event lasts no time (it has no DTEND or DURATION, or ends as it starts), so it puts nobody on call: it is left out.',
    ]);
  });

  it('refuses a broken file with a message naming the line', () => {
    expect(refusal('kind,name\nperson,Ada\n')).toBe(
      'This is not a calendar file: its first line must be BEGIN:VCALENDAR, and line 1 reads “kind,name”',
    );
    const event = (...lines: string[]) =>
      cal(
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'SUMMARY:Ada',
        ...lines,
        'END:VEVENT',
        'END:VCALENDAR',
      );
    expect(refusal(event('DTSTART:20270302T000000Z', 'GARBAGE', 'DTEND:20270303T000000Z'))).toBe(
      'Line 5: “GARBAGE” is not a calendar line (NAME:value)',
    );
    expect(refusal(event('DTSTART:2027-03-02', 'DTEND:20270303T000000Z'))).toMatch(
      /^Line 4: DTSTART “2027-03-02” is not a date/,
    );
    expect(refusal(event('DTSTART:20270230T000000Z', 'DTEND:20270303T000000Z'))).toMatch(
      /^Line 4: DTSTART/,
    );
    expect(
      refusal(event('DTSTART;TZID=Mars/Olympus:20270302T000000', 'DTEND:20270303T000000Z')),
    ).toBe(
      'Line 4: the time zone “Mars/Olympus” is not one Baton knows: export the calendar with zone names such as Europe/Berlin',
    );
    expect(
      refusal(event('DTSTART:20270302T000000Z', 'DTEND:20270303T000000Z', 'RRULE:FREQ=SOMETIMES')),
    ).toMatch(/^Line 6: RRULE “FREQ=SOMETIMES” is not a repeat rule Baton can read/);
    expect(refusal(event('DTSTART:20270302T000000Z', 'DTEND:20270301T000000Z'))).toBe(
      'Line 5: the event ends (DTEND) before it starts (DTSTART)',
    );
    expect(refusal(event('DTSTART:20270302T000000Z', 'DURATION:12 hours'))).toMatch(
      /^Line 5: DURATION “12 hours” is not a length such as PT12H/,
    );
    expect(refusal(event('DTEND:20270303T000000Z'))).toBe(
      'Line 2: the event that begins here has no DTSTART (its start)',
    );
    expect(
      refusal(cal('BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'SUMMARY:Ada', 'DTSTART:20270302T000000Z')),
    ).toBe(
      'Line 2: BEGIN:VEVENT is never closed (END:VEVENT is missing): the file may be cut short',
    );
    expect(refusal(cal('BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'END:VTODO', 'END:VCALENDAR'))).toBe(
      'Line 3: END:VTODO does not close BEGIN:VEVENT of line 2',
    );
    expect(refusal(cal('BEGIN:VCALENDAR', 'VERSION:2.0', 'END:VCALENDAR'))).toBe(
      'The calendar has no events (no BEGIN:VEVENT): export the schedule with its shifts',
    );
  });
});

describe('nameInSummary', () => {
  it('finds the name in the vendors’ summaries', () => {
    expect(nameInSummary('On Call - Ada Lovelace - Platform Primary')).toBe('Ada Lovelace');
    expect(nameInSummary('On-Call: Ada Lovelace')).toBe('Ada Lovelace');
    expect(nameInSummary('[L1] ada')).toBe('ada');
    expect(nameInSummary('Ada Lovelace is on call')).toBe('Ada Lovelace');
    expect(nameInSummary('Mary-Jane Watson')).toBe('Mary-Jane Watson');
  });
});
