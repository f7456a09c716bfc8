import { describe, expect, it } from 'vitest';
import { wallTimeOf } from '../../../shared/domain/shifts';
import { readCsv, readCsvContent } from './csv-reader';
import { CSV_COLUMNS, CSV_TEMPLATE } from './csv-template';
import { compareRenderings, renderSchedule } from './snapshot-rendering';
import { ImportSourceError, type SourceSnapshot } from './source-snapshot';

// The window starts on Monday 1 March 2027 and crosses the US (14 March) and EU (28 March)
// spring changes.
const from = new Date('2027-03-01T12:00:00Z');
const to = new Date(from.getTime() + 90 * 86_400_000);
const window = { from, to };
const HEADER = CSV_COLUMNS.join(',');

function read(text: string): SourceSnapshot {
  return readCsvContent(text, window);
}

function expectRenderingsAgree(snapshot: SourceSnapshot) {
  for (const schedule of snapshot.schedules) {
    expect(
      compareRenderings(schedule.rendered, renderSchedule(schedule, from, to), from, to),
    ).toEqual([]);
  }
}

function refusal(text: string): ImportSourceError {
  try {
    read(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as ImportSourceError).kind).toBe('input');
    return error as ImportSourceError;
  }
  throw new Error('the file was read');
}

describe('readCsv', () => {
  it('reads the template without a warning', async () => {
    const snapshot = await readCsv({
      content: CSV_TEMPLATE,
      window,
      get: async () => {
        throw new Error('a file is not fetched');
      },
    });
    expect(snapshot.notes.filter((n) => n.level === 'warning')).toEqual([]);
    expect(snapshot.source).toBe('csv');
    expect(snapshot.people.map((p) => p.email)).toEqual(['ada@example.com', 'grace@example.com']);
    expect(snapshot.schedules).toHaveLength(1);
    expect(snapshot.schedules[0]?.layers?.[0]?.memberSourceIds).toEqual([
      'ada@example.com',
      'grace@example.com',
    ]);
    expectRenderingsAgree(snapshot);
  });

  it('maps people and rotations: quoted cells, commas, a BOM, CRLF and a multi-line cell', () => {
    const text = `\uFEFF${[
      HEADER,
      'person,"Lovelace, Ada",ADA@example.com,+44 20 7946 0000,Administrator,Europe/London,,,,',
      'person,"Grace ""Amazing"" Hopper",grace@example.com,,on-call,,,,,',
      'person,Katherine Johnson,kj@example.com,,,America/New_York,,,,',
      'rotation,"Nights, EU",,,,Europe/Berlin,12h,,20:00,"Lovelace, Ada; grace@example.com',
      'kj@example.com"',
      'rotation,Platform,,,,America/New_York,2 weeks,wed,9:30,kj@example.com;ada@example.com;ada@example.com',
      'rotation,Daily,,,,UTC,daily,,06:00,new.person@example.com',
    ].join('\r\n')}\r\n`;
    const snapshot = read(text);
    expect(snapshot.people).toEqual([
      {
        sourceId: 'ada@example.com',
        name: 'Lovelace, Ada',
        email: 'ada@example.com',
        phone: '+442079460000',
        timeZone: 'Europe/London',
        role: 'admin',
      },
      {
        sourceId: 'grace@example.com',
        name: 'Grace "Amazing" Hopper',
        email: 'grace@example.com',
        phone: null,
        timeZone: null,
        role: 'member',
      },
      {
        sourceId: 'kj@example.com',
        name: 'Katherine Johnson',
        email: 'kj@example.com',
        phone: null,
        timeZone: 'America/New_York',
        role: 'member',
      },
      {
        sourceId: 'new.person@example.com',
        name: 'new.person@example.com',
        email: 'new.person@example.com',
      },
    ]);
    const [nights, platform, daily] = snapshot.schedules;
    expect(nights?.name).toBe('Nights, EU');
    expect(nights?.timeZone).toBe('Europe/Berlin');
    expect(nights?.layers?.[0]).toMatchObject({
      cadence: 'hourly',
      cadenceEvery: 12,
      handoffTime: '20:00',
      memberSourceIds: ['ada@example.com', 'grace@example.com', 'kj@example.com'],
      activeWindows: [],
    });
    // Monday 1 March 12:00 UTC is 13:00 in Berlin: the latest 20:00 was Sunday's.
    expect(nights?.layers?.[0]?.startsAt.toISOString()).toBe('2027-02-28T19:00:00.000Z');
    expect(platform?.layers?.[0]).toMatchObject({
      cadence: 'weekly',
      cadenceEvery: 2,
      handoffWeekday: 3,
      handoffTime: '09:30',
      memberSourceIds: ['kj@example.com', 'ada@example.com', 'ada@example.com'],
    });
    // The Wednesday before Monday 1 March, 09:30 in New York.
    expect(platform?.layers?.[0]?.startsAt.toISOString()).toBe('2027-02-24T14:30:00.000Z');
    expect(daily?.layers?.[0]?.startsAt.toISOString()).toBe('2027-03-01T06:00:00.000Z');
    expect(snapshot.notes).toContainEqual(
      expect.objectContaining({
        level: 'info',
        // The multi-line cell is one row, as a spreadsheet shows it.
        message: expect.stringMatching(
          /^Row 7: new\.person@example\.com is not listed as a person/,
        ),
      }),
    );
    expect(snapshot.notes.filter((n) => n.level === 'warning')).toEqual([]);
    expectRenderingsAgree(snapshot);
  });

  it('keeps handoffs at the wall-clock time across the daylight-saving change', () => {
    const snapshot = read(
      [
        HEADER,
        'person,A,a@example.com,,,,,,,',
        'person,B,b@example.com,,,,,,,',
        'rotation,US weekly,,,,America/New_York,weekly,Monday,09:00,a@example.com;b@example.com',
      ].join('\n'),
    );
    const rendered = snapshot.schedules[0]?.rendered ?? [];
    expect(rendered.length).toBeGreaterThan(10);
    for (const shift of rendered.slice(1, -1)) {
      const start = wallTimeOf(shift.start, 'America/New_York');
      expect([start.weekday, start.hour, start.minute]).toEqual([1, 9, 0]);
    }
    // The turn across 14 March lasts an hour less.
    const across = rendered.find((s) => s.start.toISOString() === '2027-03-08T14:00:00.000Z');
    expect(across?.end.toISOString()).toBe('2027-03-15T13:00:00.000Z');
    // Monday 1 March 12:00 UTC is 07:00 in New York: the first turn began on 22 February.
    expect(across?.personSourceId).toBe('a@example.com');
    expectRenderingsAgree(snapshot);
  });

  it('lists every bad row with its row number and every problem, and reads the rest', () => {
    const text = [
      HEADER,
      'person,Ada,ada@example.com,,,,,,,', // row 2: good
      'person,Bob,bob-at-example.com,,,,,,,', // row 3
      'person,Cy,cy@example.com,12345,boss,Mars/Olympus,,,,', // row 4
      'person,,ada@example.com,,,,,,,', // row 5
      'team,Ops,,,,,,,,', // row 6
      'rotation,Ops,,,,Europe/Paris,monthly,,9am,ada@example.com;Zed;Bob', // row 7
      'rotation,Weekly,,,,Europe/Paris,weekly,,09:00,ada@example.com', // row 8
      ',,,,,,,,,', // row 9: blank, skipped
      'rotation,Good,,,,Europe/Paris,daily,,09:00,Ada', // row 10
    ].join('\n');
    const snapshot = read(text);
    const warnings = snapshot.notes.filter((n) => n.level === 'warning').map((n) => n.message);
    expect(warnings).toHaveLength(6);
    expect(warnings.map((w) => w.slice(0, 6))).toEqual([
      'Row 3:',
      'Row 4:',
      'Row 5:',
      'Row 6:',
      'Row 7:',
      'Row 8:',
    ]);
    expect(warnings[3]).toBe(
      'Row 6: kind “team” is neither person nor rotation. The row is left out: correct it and import the file again.',
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/^Row 3: “bob-at-example\.com” is not an email address\./),
    );
    const row4 = warnings.find((w) => w.startsWith('Row 4:'));
    expect(row4).toContain('phone “12345”');
    expect(row4).toContain('role “boss” is not one of admin, manager or member');
    expect(row4).toContain('time zone “Mars/Olympus” is not one Baton knows');
    const row5 = warnings.find((w) => w.startsWith('Row 5:'));
    expect(row5).toContain("give the person's name");
    expect(row5).toContain('ada@example.com is listed already on row 2');
    const row7 = warnings.find((w) => w.startsWith('Row 7:'));
    expect(row7).toContain('cadence “monthly” is not daily, weekly, hourly');
    expect(row7).toContain('handoff time “9am” is not a time such as 09:00');
    expect(row7).toContain('member “Zed” is not a person listed in the file, nor an email address');
    expect(row7).toContain('member “Bob” is the person on row 3, which is left out');
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^Row 8: give the handoff day \(Monday … Sunday\) of a weekly rotation\./,
      ),
    );
    expect(snapshot.people.map((p) => p.sourceId)).toEqual(['ada@example.com']);
    expect(snapshot.schedules.map((s) => s.name)).toEqual(['Good']);
    expectRenderingsAgree(snapshot);
  });

  it('reads 200 people and 20 rotations in one step', () => {
    const lines = [HEADER];
    const zones = ['Europe/London', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'];
    for (let i = 0; i < 200; i++) {
      lines.push(
        `person,"Person ${i}, Team ${i % 20}",p${i}@example.com,+1555000${String(i).padStart(4, '0')},${i % 50 === 0 ? 'manager' : 'member'},${zones[i % 4]},,,,`,
      );
    }
    const cadences = ['weekly', 'daily', '12h', '2 weeks', '8 hours'];
    for (let r = 0; r < 20; r++) {
      const members = Array.from({ length: 10 }, (_, k) => `p${r * 10 + k}@example.com`).join(';');
      lines.push(
        `rotation,Rotation ${r},,,,${zones[r % 4]},${cadences[r % 5]},${['Monday', 'Thu', 'sunday'][r % 3]},${String(r % 24).padStart(2, '0')}:30,${members}`,
      );
    }
    const snapshot = read(lines.join('\r\n'));
    expect(snapshot.notes.filter((n) => n.level === 'warning')).toEqual([]);
    expect(snapshot.people).toHaveLength(200);
    expect(snapshot.schedules).toHaveLength(20);
    for (const schedule of snapshot.schedules) {
      expect(schedule.layers?.[0]?.memberSourceIds).toHaveLength(10);
      expect(schedule.rendered.length).toBeGreaterThan(0);
    }
    expectRenderingsAgree(snapshot);
  });

  it('reads semicolon-separated files and header spellings a spreadsheet makes', () => {
    const snapshot = read(
      ['Kind;Name;Email;Time Zone', 'person;Ada;ada@example.com;Europe/Paris'].join('\n'),
    );
    expect(snapshot.people).toEqual([
      expect.objectContaining({ email: 'ada@example.com', timeZone: 'Europe/Paris' }),
    ]);
  });

  it('refuses a file it cannot read as a whole, naming the columns it expects', () => {
    expect(refusal('').message).toMatch(
      /^The spreadsheet is empty: Baton expects the columns kind, name,/,
    );
    const noHeader = refusal('person,Ada,ada@example.com\n');
    expect(noHeader.message).toMatch(
      /^Row 1 must name the columns: the first row has no kind or name column; Baton does not know the columns “person”, “ada”, “ada@example\.com”\. Baton expects the columns kind, name, email, phone, role, time_zone, cadence, handoff_day, handoff_time, members/,
    );
    const unknown = refusal('kind,name,e-mail address\nperson,Ada,ada@example.com\n');
    expect(unknown.message).toContain('Baton does not know the column “e_mail_address”');
    expect(refusal('kind,name,name\n').message).toContain('names the column “name” twice');
    expect(refusal(`${HEADER}\r\n\r\n`).message).toBe(
      'The spreadsheet has a header and no rows: add a row for each person and rotation',
    );
    expect(
      refusal(`${HEADER}\nperson,Ada,ada@example.com\nperson,"Bob,bob@example.com\n`).message,
    ).toMatch(/^Row 3: a quoted cell is never closed/);
  });
});
