import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeOpsgenie,
  OPSGENIE_KEY,
  opsgenieAccount,
  startFakeOpsgenie,
} from '../../../../tests/setup/fake-opsgenie';
import { readOpsgenie } from './opsgenie-reader';
import { windowsOfRestriction } from './opsgenie-windows';
import { compareRenderings, renderSchedule } from './snapshot-rendering';
import { sourceGet } from './source-http';
import { ImportSourceError, type SourceSnapshot } from './source-snapshot';

const from = new Date('2027-03-01T00:00:00Z');
const to = new Date(from.getTime() + 90 * 86_400_000);
const window = { from, to };

let fake: FakeOpsgenie;
const get = (timeoutMs?: number) =>
  sourceGet({
    sourceLabel: 'Opsgenie',
    rule: { allowLoopback: true, allowedRanges: [] },
    timeoutMs,
  });
const read = (apiKey = OPSGENIE_KEY, timeoutMs?: number) =>
  readOpsgenie({ apiUrl: fake.url, apiKey, window, get: get(timeoutMs) });

beforeAll(async () => {
  fake = await startFakeOpsgenie();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.behaviour = { kind: 'ok' };
});

const schedule = (s: SourceSnapshot, id: string) => {
  const found = s.schedules.find((x) => x.sourceId === id);
  if (!found) throw new Error(`no schedule ${id}`);
  return found;
};
const notesAbout = (s: SourceSnapshot, subject: string) =>
  s.notes.filter((n) => n.subject.startsWith(subject)).map((n) => `${n.level}: ${n.message}`);

describe('readOpsgenie', () => {
  let snapshot: SourceSnapshot;
  beforeAll(async () => {
    fake.requests.length = 0;
    snapshot = await read();
  });

  it('reads every page of users, matching by email and saying who cannot be matched', () => {
    expect(fake.requests.filter((r) => r.startsWith('/v2/users'))).toEqual([
      '/v2/users?limit=100&offset=0',
      '/v2/users?limit=2&offset=2',
      '/v2/users?limit=2&offset=4',
    ]);
    expect(snapshot.source).toBe('opsgenie');
    expect(snapshot.account).toBe(new URL(fake.url).host);
    expect(snapshot.people).toEqual([
      {
        sourceId: 'u-ada',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        timeZone: 'Europe/Berlin',
        role: 'admin',
      },
      expect.objectContaining({ sourceId: 'u-grace', email: 'grace@example.com', role: 'member' }),
      expect.objectContaining({ sourceId: 'u-alan', email: 'alan@example.com', role: 'member' }),
      expect.objectContaining({ sourceId: 'u-linus', role: 'admin' }),
      expect.objectContaining({ sourceId: 'u-kiosk', name: 'NOC Kiosk', email: null }),
    ]);
    expect(notesAbout(snapshot, 'User noc-kiosk')).toEqual([
      expect.stringMatching(/^warning: Its username is not an email address/),
    ]);
  });

  it('maps rotations onto layers in order, the restrictions onto on-duty windows', () => {
    const platform = schedule(snapshot, 'sch-platform');
    expect(platform.timeZone).toBe('Europe/Berlin');
    expect(platform.layers).toEqual([
      {
        name: 'Weekly',
        memberSourceIds: ['u-ada', 'u-grace', 'u-alan'],
        cadence: 'weekly',
        cadenceEvery: 1,
        handoffTime: '09:00',
        handoffWeekday: 1,
        activeWindows: [],
        startsAt: new Date('2027-01-04T08:00:00Z'),
      },
      {
        name: 'Weekend nights',
        memberSourceIds: ['u-alan', 'u-ada'],
        cadence: 'weekly',
        cadenceEvery: 1,
        handoffTime: '18:00',
        handoffWeekday: 5,
        activeWindows: [
          { days: [5], start: '18:00', end: '00:00' },
          { days: [0, 6], start: '00:00', end: '00:00' },
          { days: [1], start: '00:00', end: '08:00' },
          { days: [3], start: '22:00', end: '06:30' },
        ],
        startsAt: new Date('2027-01-01T17:00:00Z'),
      },
    ]);
    const sun = schedule(snapshot, 'sch-sun');
    expect(sun.timeZone).toBe('America/Los_Angeles');
    expect(
      sun.layers?.map((l) => [l.cadence, l.cadenceEvery, l.handoffTime, l.activeWindows]),
    ).toEqual([
      ['hourly', 12, '08:00', []],
      ['daily', 1, '09:00', [{ days: [0, 1, 2, 3, 4, 5, 6], start: '09:00', end: '17:30' }]],
    ]);
  });

  it('says where rotations overlap: Opsgenie notifies both, Baton keeps the later one', () => {
    expect(notesAbout(snapshot, 'Schedule “Platform” rotation “Weekend nights”')).toEqual([
      expect.stringMatching(
        /^warning: It is on call at the same time as an earlier rotation for \d+ hours/,
      ),
    ]);
  });

  it('makes a rotation that ends inside the window, or has an empty turn, a scheduled rotation', () => {
    const db = schedule(snapshot, 'sch-db');
    expect(db.layers).toBeNull();
    expect(db.rendered.length).toBeGreaterThan(20);
    const notes = notesAbout(snapshot, 'Schedule “Database”');
    expect(notes).toEqual([
      expect.stringMatching(/^warning: It is on call at the same time as an earlier rotation/),
      expect.stringMatching(
        /scheduled rotation .*rotation “Primary” ends on 12 Apr 2027, 10:00, inside the 90 days, and a Baton layer cannot end/,
      ),
      expect.stringMatching(
        /scheduled rotation .*rotation “Daily” has a turn with nobody \(“none”\)/,
      ),
    ]);
    // The empty turn is a day with nobody on call after Primary ends.
    const gaps = db.rendered.slice(1).filter((s, i) => s.start > (db.rendered[i]?.end ?? s.start));
    expect(gaps.length).toBeGreaterThan(0);
  });

  it("renders every schedule as Opsgenie's timeline does, to the minute, over 90 days across both clock changes", () => {
    expect(snapshot.schedules).toHaveLength(3);
    for (const s of snapshot.schedules) {
      expect(s.rendered.length, s.name).toBeGreaterThan(0);
      expect(compareRenderings(s.rendered, renderSchedule(s, from, to), from, to), s.name).toEqual(
        [],
      );
    }
    // the 12-hour turns keep 08:00 and 20:00 in Los Angeles: 16:00Z before 14 March, 15:00Z after
    const sun = schedule(snapshot, 'sch-sun').rendered;
    expect(sun.some((x) => x.start.toISOString() === '2027-03-02T04:00:00.000Z')).toBe(true);
    expect(sun.some((x) => x.start.toISOString() === '2027-03-16T03:00:00.000Z')).toBe(true);
  });

  it('finds a difference when the mapping drifts (the check can fail)', () => {
    const platform = schedule(snapshot, 'sch-platform');
    const [first, second] = platform.layers ?? [];
    if (!first || !second) throw new Error('layers');
    const drifted = { ...platform, layers: [first, { ...second, handoffTime: '19:00' }] };
    expect(
      compareRenderings(platform.rendered, renderSchedule(drifted, from, to), from, to),
    ).not.toEqual([]);
    const swapped = { ...platform, layers: [second, first] };
    expect(
      compareRenderings(platform.rendered, renderSchedule(swapped, from, to), from, to),
    ).not.toEqual([]);
  });

  it('keeps overrides in the window as cover, cut to the hours Opsgenie gives them', () => {
    expect(schedule(snapshot, 'sch-platform').overrides).toEqual([
      {
        start: new Date('2027-03-10T10:00:00Z'),
        end: new Date('2027-03-12T10:00:00Z'),
        personSourceId: 'u-linus',
      },
    ]);
    // Grace's override names the business-hours rotation only (09:00–17:30 in Los Angeles):
    // from 08:00 to 09:00 and after 17:30 the 12-hour rotation's Alan stays on call.
    expect(schedule(snapshot, 'sch-sun').overrides).toEqual([
      {
        start: new Date('2027-04-06T16:00:00Z'),
        end: new Date('2027-04-07T00:30:00Z'),
        personSourceId: 'u-grace',
      },
    ]);
    expect(notesAbout(snapshot, 'Schedule “Follow the sun” override')).toEqual([
      expect.stringMatching(/^info: In Opsgenie it applies only to “Business hours”/),
    ]);
  });

  it('turns escalations into steps with minutes between them, the repeat capped, each change said', () => {
    expect(snapshot.policies).toEqual([
      {
        sourceId: 'esc-platform',
        name: 'Platform escalation',
        description: 'Platform first, then Grace, then the next on call',
        repeat: 2,
        loopDelayMinutes: 5,
        steps: [
          { delayMinutes: 0, targets: [{ kind: 'schedule', sourceId: 'sch-platform' }] },
          { delayMinutes: 10, targets: [{ kind: 'person', sourceId: 'u-grace' }] },
          { delayMinutes: 50, targets: [{ kind: 'schedule', sourceId: 'sch-sun' }] },
        ],
      },
      {
        sourceId: 'esc-db',
        name: 'Database escalation',
        description: null,
        repeat: 9,
        loopDelayMinutes: null,
        steps: [
          { delayMinutes: 0, targets: [{ kind: 'schedule', sourceId: 'sch-db' }] },
          { delayMinutes: 2, targets: [{ kind: 'schedule', sourceId: 'sch-db' }] },
          { delayMinutes: 28, targets: [{ kind: 'person', sourceId: 'u-alan' }] },
        ],
      },
    ]);
    expect(notesAbout(snapshot, 'Escalation “Platform escalation”')).toEqual([]);
    expect(notesAbout(snapshot, 'Escalation “Database escalation”')).toEqual([
      expect.stringMatching(/rule 2 notifies the next on call of “Database”/),
      expect.stringMatching(/rule 2 waits 90 seconds; Baton counts whole minutes, so it waits 2/),
      expect.stringMatching(/rule 3 runs until the alert is closed/),
      expect.stringMatching(/rule 4 notifies the team “Database team”: not imported/),
      expect.stringMatching(/repeats 12 times; Baton repeats a policy at most 9 times/),
    ]);
  });

  it('gives each integration its Baton source and its escalation (direct, or its team’s default route)', () => {
    expect(snapshot.integrations).toEqual([
      {
        sourceId: 'int-api',
        name: 'Platform API',
        source: 'opsgenie',
        policySourceId: 'esc-platform',
        scheduleSourceId: null,
      },
      {
        sourceId: 'int-prom',
        name: 'Prometheus',
        source: 'alertmanager',
        policySourceId: null,
        scheduleSourceId: 'sch-db',
      },
      {
        sourceId: 'int-email',
        name: 'Alerts by email',
        source: 'email',
        policySourceId: 'esc-db',
        scheduleSourceId: null,
      },
      {
        sourceId: 'int-datadog',
        name: 'Datadog',
        source: 'generic',
        policySourceId: 'esc-platform',
        scheduleSourceId: null,
      },
    ]);
    expect(notesAbout(snapshot, 'Integration “Prometheus”')).toEqual([
      expect.stringMatching(
        /routes alerts by 2 rules; Baton sends all of its alerts by the default rule \(“Default”\)/,
      ),
    ]);
    expect(notesAbout(snapshot, 'Integration “Datadog”')).toEqual([
      expect.stringMatching(
        /^warning: Baton has no Datadog endpoint: it becomes a generic integration/,
      ),
      'info: It is disabled in Opsgenie; it is imported all the same',
    ]);
    // routing rules read once per team
    expect(fake.requests.filter((r) => r.includes('routing-rules'))).toHaveLength(2);
  });

  it('sends the key only as a GenieKey header', () => {
    expect(fake.requests.every((r) => !r.includes(OPSGENIE_KEY))).toBe(true);
  });
});

describe('readOpsgenie with other patterns', () => {
  it('leaves out a rotation that ended, keeps one that ends after the window, and makes a team turn scheduled', async () => {
    const account = opsgenieAccount();
    const [platform, sun] = account.schedules;
    if (!platform || !sun) throw new Error('schedules');
    const [weekly] = platform.rotations;
    if (!weekly) throw new Error('rotation');
    platform.rotations.push({
      id: 'rot-old',
      name: 'Old',
      startDate: '2026-01-01T08:00:00Z',
      endDate: '2026-06-01T08:00:00Z',
      type: 'daily',
      length: 1,
      participants: [{ type: 'user', id: 'u-linus', username: 'linus@example.com' }],
    });
    weekly.endDate = '2027-09-06T08:00:00Z';
    sun.rotations.push({
      id: 'rot-team',
      name: 'Team nights',
      startDate: '2027-02-01T06:00:00Z',
      type: 'daily',
      length: 1,
      participants: [{ type: 'team', id: 'team-db', name: 'Database team' }],
      timeRestriction: {
        type: 'time-of-day',
        restriction: { startHour: 22, startMin: 0, endHour: 6, endMin: 0 },
      },
    });
    const other = await startFakeOpsgenie(account);
    try {
      const s = await readOpsgenie({ apiUrl: other.url, apiKey: OPSGENIE_KEY, window, get: get() });
      const kept = schedule(s, 'sch-platform');
      expect(kept.layers?.map((l) => l.name)).toEqual(['Weekly', 'Weekend nights']);
      expect(notesAbout(s, 'Schedule “Platform” rotation “Old”')).toEqual([
        'info: It has ended: not imported',
      ]);
      expect(notesAbout(s, 'Schedule “Platform” rotation “Weekly”')).toEqual([
        'warning: It ends on 6 Sept 2027, 10:00, after the 90 days; a Baton layer cannot end, so it goes on: remove the layer then',
      ]);
      const teamed = schedule(s, 'sch-sun');
      expect(teamed.layers).toBeNull();
      expect(notesAbout(s, 'Schedule “Follow the sun”')).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /rotation “Team nights” has a team \(Database team\) taking a turn/,
          ),
          expect.stringMatching(
            /^warning: Its timeline puts Database team on call, which is not a person/,
          ),
        ]),
      );
      for (const x of s.schedules) {
        expect(
          compareRenderings(x.rendered, renderSchedule(x, from, to), from, to),
          x.name,
        ).toEqual([]);
      }
    } finally {
      await other.close();
    }
  });
});

describe('readOpsgenie refusals', () => {
  it('names Opsgenie and the key when the key is refused', async () => {
    const err = await read('wrong-key').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportSourceError);
    expect((err as ImportSourceError).message).toBe(
      'Opsgenie refused the API key (401): check the key and that it may read this account',
    );
    expect((err as ImportSourceError).kind).toBe('input');
  });

  it('asks for a key when none is given', async () => {
    await expect(readOpsgenie({ apiUrl: fake.url, window, get: get() })).rejects.toThrow(
      'Give the Opsgenie API key to read this account with',
    );
  });

  it('says Opsgenie did not answer in time', async () => {
    fake.behaviour = { kind: 'hang' };
    await expect(read(OPSGENIE_KEY, 300)).rejects.toThrow('Opsgenie did not answer within 0 s');
  });

  it('says which answer it could not read', async () => {
    fake.behaviour = { kind: 'malformed' };
    await expect(read()).rejects.toThrow(
      /^Opsgenie answered \/v2\/schedules with data Baton cannot read \(at data\.0\.rotations\)/,
    );
  });

  it('says Opsgenie limited the rate, and what to do', async () => {
    fake.behaviour = { kind: 'rate-limited' };
    await expect(read()).rejects.toThrow(
      'Opsgenie limited the rate of requests (429) at /v2/users: wait a minute and import again',
    );
  });

  it('does not follow a next page to another address', async () => {
    const other = await startFakeOpsgenie(opsgenieAccount());
    try {
      const get0 = get();
      const redirecting: typeof get0 = async (url, headers) => {
        const answer = await get0(url, headers);
        const body = answer.body as { paging?: { next?: string } };
        if (body.paging?.next) body.paging.next = body.paging.next.replace(fake.url, other.url);
        return answer;
      };
      await expect(
        readOpsgenie({ apiUrl: fake.url, apiKey: OPSGENIE_KEY, window, get: redirecting }),
      ).rejects.toThrow(/pointed the next page at another address/);
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('windowsOfRestriction', () => {
  it('joins a span into the next day when a Baton window can run into it', () => {
    expect(
      windowsOfRestriction({
        type: 'weekday-and-time-of-day',
        restrictions: [
          {
            startDay: 'friday',
            startHour: 18,
            startMin: 0,
            endDay: 'saturday',
            endHour: 8,
            endMin: 0,
          },
          {
            startDay: 'monday',
            startHour: 9,
            startMin: 0,
            endDay: 'monday',
            endHour: 17,
            endMin: 0,
          },
          {
            startDay: 'tuesday',
            startHour: 9,
            startMin: 0,
            endDay: 'tuesday',
            endHour: 17,
            endMin: 0,
          },
        ],
      }),
    ).toEqual([
      { days: [5], start: '18:00', end: '08:00' },
      { days: [1, 2], start: '09:00', end: '17:00' },
    ]);
  });

  it('reads a span that ends where it starts as the whole week', () => {
    expect(
      windowsOfRestriction({
        type: 'weekday-and-time-of-day',
        restrictions: [
          {
            startDay: 'monday',
            startHour: 8,
            startMin: 0,
            endDay: 'monday',
            endHour: 8,
            endMin: 0,
          },
        ],
      }),
    ).toEqual([
      { days: [1], start: '08:00', end: '00:00' },
      { days: [0, 2, 3, 4, 5, 6], start: '00:00', end: '00:00' },
      { days: [1], start: '00:00', end: '08:00' },
    ]);
  });

  it('has no windows without a restriction, and one every day for a time of day', () => {
    expect(windowsOfRestriction(null)).toEqual([]);
    expect(
      windowsOfRestriction({
        type: 'time-of-day',
        restriction: { startHour: 20, startMin: 0, endHour: 8, endMin: 0 },
      }),
    ).toEqual([{ days: [0, 1, 2, 3, 4, 5, 6], start: '20:00', end: '08:00' }]);
  });
});
