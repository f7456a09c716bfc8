import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakePagerDuty,
  PAGERDUTY_WINDOW,
  pagerDutyAccount,
  startFakePagerDuty,
} from '../../../../tests/setup/fake-pagerduty';
import { readPagerDuty } from './pagerduty-reader';
import { compareRenderings, renderSchedule } from './snapshot-rendering';
import { sourceGet } from './source-http';
import { ImportSourceError, type SourceSchedule, type SourceSnapshot } from './source-snapshot';

/*
 * The PagerDuty reader against a loopback server speaking PagerDuty's REST API v2 (decision 270).
 * The server renders each schedule's final schedule itself, by PagerDuty's documented rules; the
 * reader's layers, rendered through Baton's own engine, must name the same person at every
 * minute of the 90 days, across the US and EU spring changes of the clocks.
 */

const KEY = 'u+read-only-key-1';
const { from, to } = PAGERDUTY_WINDOW;

let pd: FakePagerDuty;

beforeEach(async () => {
  pd = await startFakePagerDuty({ account: pagerDutyAccount(), key: KEY, pageMax: 2 });
});
afterEach(async () => {
  await pd.close();
});

const read = (options: { apiKey?: string; timeoutMs?: number } = {}): Promise<SourceSnapshot> =>
  readPagerDuty({
    apiUrl: pd.url,
    apiKey: 'apiKey' in options ? options.apiKey : KEY,
    window: { from, to },
    get: sourceGet({
      sourceLabel: 'PagerDuty',
      rule: { allowLoopback: true, allowedRanges: [] },
      timeoutMs: options.timeoutMs,
    }),
  });

const scheduleNamed = (snapshot: SourceSnapshot, name: string): SourceSchedule => {
  const schedule = snapshot.schedules.find((s) => s.name === name);
  if (!schedule) throw new Error(`no schedule ${name}`);
  return schedule;
};

const iso = (d: Date) => d.toISOString();

async function readError(promise: Promise<unknown>): Promise<ImportSourceError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ImportSourceError) return err;
    throw err;
  }
  throw new Error('the read did not fail');
}

describe('readPagerDuty: the account', () => {
  it('reads every person across pages, with role, phone and zone, and says what it changed', async () => {
    const snapshot = await read();
    expect(snapshot.source).toBe('pagerduty');
    expect(snapshot.account).toBe(pd.url);
    expect(snapshot.people).toEqual([
      {
        sourceId: 'PADA001',
        name: 'Ada Lovelace',
        email: 'ada@acme.example',
        phone: '+12125550101',
        timeZone: 'America/New_York',
        role: 'admin',
      },
      {
        sourceId: 'PBOB002',
        name: 'Bob Brown',
        email: 'Bob.Brown@acme.example',
        phone: null,
        timeZone: 'America/New_York',
        role: 'admin',
      },
      {
        sourceId: 'PCAR003',
        name: 'Carol King',
        email: 'carol@acme.example',
        phone: '+447700900123',
        timeZone: 'Europe/London',
        role: 'member',
      },
      expect.objectContaining({ sourceId: 'PDAN004', role: 'member' }),
      expect.objectContaining({ sourceId: 'PEVE005', email: 'eve@contractor.example' }),
      expect.objectContaining({ sourceId: 'PFAY006', role: 'member' }),
      expect.objectContaining({ sourceId: 'PGUS007', role: 'member' }),
    ]);
    // seven people, two to a page: four pages, each asked with the offset it had reached
    const userPages = pd.requests.filter((r) => r.startsWith('/users'));
    expect(userPages.map((r) => new URLSearchParams(r.split('?')[1]).get('offset'))).toEqual([
      '0',
      '2',
      '4',
      '6',
    ]);
    const notes = snapshot.notes.map((n) => `${n.subject}: ${n.message}`);
    expect(notes).toContain(
      "User “Fay Wong”: PagerDuty's limited user role has no match in Baton: imported as a member",
    );
    expect(notes).toContain(
      "User “Gus Hale”: PagerDuty's observer role has no match in Baton: imported as a member",
    );
    expect(notes).toContain(
      'User “Eve Stone”: Email eve@contractor.example is outside acme.example, the domain of most of the account: check it is the address they sign in to Baton with',
    );
  });

  it('sends the key only in the Authorization header, never in an address', async () => {
    await read();
    expect(pd.requests.length).toBeGreaterThan(10);
    expect(pd.requests.some((r) => r.includes(KEY) || r.includes('read-only-key'))).toBe(false);
  });

  it('maps escalation rules to steps with their delays, targets and repeat', async () => {
    // a rule's delay is the wait before the next rule; a snapshot step's is the wait after the one before
    const snapshot = await read();
    expect(snapshot.policies).toEqual([
      {
        sourceId: 'PPOL001',
        name: 'Platform escalation',
        description: 'Platform first, then Bob and Support',
        repeat: 2,
        loopDelayMinutes: 30,
        steps: [
          // the first step when the incident opens, the second 15 minutes after it
          { delayMinutes: 0, targets: [{ kind: 'schedule', sourceId: 'PSCHA01' }] },
          {
            delayMinutes: 15,
            targets: [
              { kind: 'person', sourceId: 'PBOB002' },
              { kind: 'schedule', sourceId: 'PSCHB02' },
            ],
          },
        ],
      },
      {
        sourceId: 'PPOL002',
        name: 'Database escalation',
        description: null,
        repeat: 9,
        loopDelayMinutes: 20,
        steps: [
          { delayMinutes: 0, targets: [{ kind: 'schedule', sourceId: 'PSCHC03' }] },
          {
            delayMinutes: 10,
            targets: [
              { kind: 'person', sourceId: 'PADA001' },
              { kind: 'person', sourceId: 'PDAN004' },
            ],
          },
        ],
      },
    ]);
    const warnings = snapshot.notes.filter(
      (n) => n.subject === 'Escalation policy “Database escalation”',
    );
    expect(warnings.map((n) => n.message)).toEqual([
      'It repeats 12 times in PagerDuty; Baton repeats at most 9 times',
      "Its rule 2 assigns round robin; the import's step notifies everyone at once: set round robin on it in Baton",
    ]);
  });

  it("maps each service's integrations to the Baton endpoint its sender speaks", async () => {
    const snapshot = await read();
    expect(snapshot.integrations).toEqual([
      {
        sourceId: 'PINT001',
        name: 'Checkout API: Datadog',
        source: 'pagerduty',
        policySourceId: 'PPOL001',
        scheduleSourceId: null,
      },
      {
        sourceId: 'PINT002',
        name: 'Checkout API: Email',
        source: 'email',
        policySourceId: 'PPOL001',
        scheduleSourceId: null,
      },
      {
        sourceId: 'PINT003',
        name: 'Orders DB: Prometheus',
        source: 'pagerduty',
        policySourceId: 'PPOL002',
        scheduleSourceId: null,
      },
      {
        sourceId: 'PINT004',
        name: 'Orders DB: Nagios',
        source: 'generic',
        policySourceId: 'PPOL002',
        scheduleSourceId: null,
      },
    ]);
    expect(snapshot.notes).toContainEqual({
      level: 'warning',
      subject: 'Service “Orders DB” integration “Nagios”',
      message:
        "Its type (nagios inbound integration) has no Baton endpoint of its own: it becomes a generic integration; point the sender at Baton's generic endpoint",
    });
  });
});

describe('readPagerDuty: schedules', () => {
  it('maps layers lowest first, with turns, handoffs and on-duty windows', async () => {
    const snapshot = await read();
    const platform = scheduleNamed(snapshot, 'Platform');
    expect(platform.timeZone).toBe('America/New_York');
    expect(platform.layers).toEqual([
      {
        name: 'Weekly',
        // the turn holding the window's start (from Monday 22 February) is turn 7: Bob's
        memberSourceIds: ['PBOB002', 'PCAR003', 'PADA001'],
        cadence: 'weekly',
        cadenceEvery: 1,
        handoffTime: '09:00',
        handoffWeekday: 1,
        activeWindows: [],
        startsAt: new Date('2027-02-22T14:00:00Z'),
      },
      {
        name: 'Day',
        // 1 March 00:00 UTC is 28 February 19:00 in New York: turn 27, Eve's
        memberSourceIds: ['PEVE005', 'PDAN004'],
        cadence: 'daily',
        cadenceEvery: 1,
        handoffTime: '08:00',
        handoffWeekday: 0,
        activeWindows: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '08:00', end: '20:00' }],
        startsAt: new Date('2027-02-28T13:00:00Z'),
      },
      {
        name: 'Night',
        memberSourceIds: ['PADA001', 'PBOB002', 'PDAN004'],
        cadence: 'daily',
        cadenceEvery: 1,
        handoffTime: '20:00',
        handoffWeekday: 0,
        activeWindows: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '20:00', end: '06:00' }],
        startsAt: new Date('2027-02-28T01:00:00Z'),
      },
    ]);
    expect(platform.overrides.map((o) => [iso(o.start), o.personSourceId])).toEqual([
      ['2027-03-10T12:00:00.000Z', 'PADA001'],
      ['2027-03-14T05:00:00.000Z', 'PEVE005'],
    ]);

    const support = scheduleNamed(snapshot, 'Support');
    expect(
      support.layers?.map((l) => [l.name, l.cadence, l.cadenceEvery, l.activeWindows]),
    ).toEqual([
      ['Office hours', 'daily', 1, [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }]],
      // a 48-hour weekend restriction from Saturday 00:00: a whole day on Saturday and Sunday
      ['Weekends', 'weekly', 2, [{ days: [0, 6], start: '00:00', end: '00:00' }]],
    ]);
    const weekends = support.layers?.[1];
    // starts inside the window, mid-turn: Baton starts it there, with whoever holds that turn
    expect(weekends?.startsAt).toEqual(new Date('2027-04-05T11:00:00Z'));
    expect(weekends?.handoffWeekday).toBe(6);
    expect(weekends?.memberSourceIds).toEqual(['PADA001', 'PBOB002', 'PCAR003']);
  });

  it("renders every schedule as PagerDuty's final schedule does, minute by minute over 90 days", async () => {
    const snapshot = await read();
    expect(snapshot.schedules.map((s) => s.name)).toEqual(['Platform', 'Support', 'Database']);
    for (const schedule of snapshot.schedules) {
      // what the reader kept is what PagerDuty answered
      const answered = pd.finalSchedule(schedule.sourceId, from, to);
      expect(schedule.rendered.length).toBeGreaterThan(20);
      expect(
        compareRenderings(
          answered.map((e) => ({ ...e, personSourceId: e.user })),
          schedule.rendered,
          from,
          to,
        ),
      ).toEqual([]);
      expect(
        compareRenderings(schedule.rendered, renderSchedule(schedule, from, to), from, to),
      ).toEqual([]);
    }
  });

  it('keeps the handoff at the same local time across the change of the clocks', async () => {
    const snapshot = await read();
    const platform = scheduleNamed(snapshot, 'Platform');
    const starts = platform.rendered.map((s) => iso(s.start));
    // the day layer takes over at 08:00 New York: 13:00 UTC before 14 March, 12:00 UTC after
    expect(starts).toContain('2027-03-12T13:00:00.000Z');
    expect(starts).toContain('2027-03-16T12:00:00.000Z');
    const support = scheduleNamed(snapshot, 'Support');
    // office hours open at 09:00 London: 09:00 UTC before 28 March, 08:00 UTC after
    expect(support.rendered.map((s) => iso(s.start))).toEqual(
      expect.arrayContaining(['2027-03-26T09:00:00.000Z', '2027-03-30T08:00:00.000Z']),
    );
  });

  it('finds a difference when a layer is mapped wrong (the comparison is not blind)', async () => {
    const snapshot = await read();
    const platform = scheduleNamed(snapshot, 'Platform');
    const night = platform.layers?.[2];
    if (!night) throw new Error('no night layer');
    night.memberSourceIds = [...night.memberSourceIds].reverse();
    const differences = compareRenderings(
      platform.rendered,
      renderSchedule(platform, from, to),
      from,
      to,
    );
    expect(differences.length).toBeGreaterThan(10);
  });

  it('makes a schedule whose layer ends inside the window a scheduled one, and says why', async () => {
    const snapshot = await read();
    const database = scheduleNamed(snapshot, 'Database');
    expect(database.layers).toBeNull();
    expect(database.overrides.map((o) => o.personSourceId)).toEqual(['PFAY006']);
    expect(snapshot.notes).toContainEqual({
      level: 'warning',
      subject: 'Schedule “Database”',
      message:
        "Its layer “Old weekly” ends on 2027-04-15T14:00:00.000Z, inside the import window, and a Baton layer does not end. It becomes a scheduled rotation of PagerDuty's own shifts from 2027-03-01 to 2027-05-30: add later shifts in Baton before then",
    });
    // the old layer's weeks, then the daily layer from 15 April
    const holders = new Set(database.rendered.map((s) => s.personSourceId));
    expect(holders).toEqual(new Set(['PBOB002', 'PEVE005', 'PADA001', 'PDAN004', 'PFAY006']));
  });

  it('keeps a 36-hour turn as 36-hour shifts, and makes a 90-minute turn a scheduled rotation', async () => {
    pd.account.schedules.push(
      {
        id: 'PSCHD04',
        name: 'Long turns',
        description: null,
        time_zone: 'Europe/London',
        layers: [
          {
            id: 'PLAYD1',
            name: 'Thirty-six',
            start: '2027-01-01T07:00:00Z',
            end: null,
            rotation_virtual_start: '2027-01-01T07:00:00Z',
            rotation_turn_length_seconds: 36 * 3600,
            users: ['PCAR003', 'PDAN004', 'PFAY006'],
            restrictions: [],
          },
        ],
        overrides: [],
      },
      {
        id: 'PSCHE05',
        name: 'Short turns',
        description: null,
        time_zone: 'America/New_York',
        layers: [
          {
            id: 'PLAYE1',
            name: 'Ninety minutes',
            start: '2027-02-01T14:00:00Z',
            end: null,
            rotation_virtual_start: '2027-02-01T14:00:00Z',
            rotation_turn_length_seconds: 5400,
            users: ['PADA001', 'PBOB002'],
            restrictions: [],
          },
        ],
        overrides: [],
      },
    );
    const snapshot = await read();
    const long = scheduleNamed(snapshot, 'Long turns');
    expect(long.layers?.map((l) => [l.cadence, l.cadenceEvery])).toEqual([['hourly', 36]]);
    expect(compareRenderings(long.rendered, renderSchedule(long, from, to), from, to)).toEqual([]);

    const short = scheduleNamed(snapshot, 'Short turns');
    expect(short.layers).toBeNull();
    expect(snapshot.notes.find((n) => n.subject === 'Schedule “Short turns”')?.message).toMatch(
      /^Its layer “Ninety minutes” has turns of 5400 seconds, not a whole number of hours as Baton's turns are\. It becomes a scheduled rotation/,
    );
    expect(short.rendered.length).toBeGreaterThan(1000);
    expect(compareRenderings(short.rendered, renderSchedule(short, from, to), from, to)).toEqual(
      [],
    );
  });
});

describe('readPagerDuty: refusals', () => {
  it('says PagerDuty refused the key when it answers 401', async () => {
    const err = await readError(read({ apiKey: 'a-wrong-key' }));
    expect(err.kind).toBe('input');
    expect(err.message).toBe(
      'PagerDuty refused the API key (401): check the key and that it may read this account',
    );
  });

  it('asks for a key when none is given', async () => {
    const err = await readError(read({ apiKey: '  ' }));
    expect(err.kind).toBe('input');
    expect(err.message).toBe('Give a PagerDuty REST API key (read-only is enough)');
  });

  it('says PagerDuty did not answer in time', async () => {
    pd.behaviour = { kind: 'hang', path: '/schedules' };
    const err = await readError(read({ timeoutMs: 300 }));
    expect(err.kind).toBe('source');
    expect(err.message).toBe('PagerDuty did not answer within 0 s');
  });

  it('says an answer was not JSON', async () => {
    pd.behaviour = { kind: 'malformed', path: '/users' };
    const err = await readError(read());
    expect(err.message).toBe('PagerDuty answered /users with data that is not JSON');
  });

  it('names the status and the path when PagerDuty fails', async () => {
    pd.behaviour = { kind: 'status', status: 500, path: '/escalation_policies' };
    const err = await readError(read());
    expect(err.kind).toBe('source');
    expect(err.message).toBe('PagerDuty answered 500 for /escalation_policies');
  });

  it('names the field of an answer it cannot read', async () => {
    const layer = pd.account.schedules[1]?.layers[0];
    if (!layer) throw new Error('no layer');
    layer.rotation_turn_length_seconds = -1;
    const err = await readError(read());
    expect(err.message).toBe(
      'PagerDuty answered /schedules/PSCHB02 with data Baton cannot read at schedule.schedule_layers.1.rotation_turn_length_seconds: Too small: expected number to be >0',
    );
  });
});
