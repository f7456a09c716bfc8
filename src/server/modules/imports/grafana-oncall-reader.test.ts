import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeGrafanaOnCall,
  type FakeShift,
  startFakeGrafanaOnCall,
} from '../../../../tests/setup/fake-grafana-oncall';
import { readGrafanaOnCall } from './grafana-oncall-reader';
import { compareRenderings, renderSchedule } from './snapshot-rendering';
import { sourceGet } from './source-http';
import { ImportSourceError, type SourceReadInput, type SourceSnapshot } from './source-snapshot';

const from = new Date('2027-03-01T00:00:00Z');
const to = new Date(from.getTime() + 90 * 86_400_000);
const ADA = 'U4DNY931HHJS5';
const BRAM = 'U7S8H84ARFTGN';
const CHEN = 'UC2CHRT5SD34X';
const DANA = 'UDANA8K2M4P1Q';
const EMIL = 'UEMIL5T7R9W2X';
const FAY = 'UFAY3J6L8N0B2';

let fake: FakeGrafanaOnCall;
beforeEach(async () => {
  fake = await startFakeGrafanaOnCall();
});
afterEach(async () => {
  await fake.close();
});

function input(over: Partial<SourceReadInput> = {}, timeoutMs?: number): SourceReadInput {
  return {
    apiUrl: fake.url,
    apiKey: fake.token,
    window: { from, to },
    get: sourceGet({
      sourceLabel: 'Grafana OnCall',
      rule: { allowLoopback: true, allowedRanges: [] },
      timeoutMs,
    }),
    ...over,
  };
}

const scheduleNamed = (snapshot: SourceSnapshot, name: string) => {
  const found = snapshot.schedules.find((s) => s.name === name);
  if (!found) throw new Error(`no schedule ${name}`);
  return found;
};

async function refusal(promise: Promise<unknown>): Promise<ImportSourceError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportSourceError);
  return err as ImportSourceError;
}

describe('readGrafanaOnCall', () => {
  it('reads every page of users with their roles, time zones and emails', async () => {
    const snapshot = await readGrafanaOnCall(input());
    expect(snapshot.source).toBe('grafana-oncall');
    expect(snapshot.account).toBe(fake.url);
    expect(snapshot.people).toHaveLength(7);
    expect(snapshot.people[0]).toEqual({
      sourceId: ADA,
      name: 'ada',
      email: 'ada@example.com',
      timeZone: 'Europe/Amsterdam',
      role: 'admin',
    });
    expect(snapshot.people.find((p) => p.sourceId === EMIL)?.role).toBe('member');
    expect(snapshot.people.find((p) => p.name === 'gus')?.email).toBeNull();
    expect(snapshot.notes).toContainEqual(
      expect.objectContaining({ level: 'warning', subject: 'User gus' }),
    );
    // seven users at two a page: four pages, each asked with the token in its header only
    expect(fake.requests.filter((r) => r.startsWith('/api/v1/users/'))).toEqual([
      '/api/v1/users/',
      '/api/v1/users/?page=2',
      '/api/v1/users/?page=3',
      '/api/v1/users/?page=4',
    ]);
    expect(new Set(fake.authorizations)).toEqual(new Set([fake.token]));
    expect(fake.requests.some((r) => r.includes(fake.token))).toBe(false);
  });

  it('maps rolling shifts onto layers, lowest level first, with windows and overrides', async () => {
    const snapshot = await readGrafanaOnCall(input({ apiUrl: `${fake.url}/api/v1/` }));
    expect(snapshot.account).toBe(fake.url);
    const platform = scheduleNamed(snapshot, 'Platform');
    expect(platform.timeZone).toBe('Europe/Amsterdam');
    expect(platform.layers).toEqual([
      {
        name: 'Weekly primary',
        memberSourceIds: [ADA, BRAM, CHEN],
        cadence: 'weekly',
        cadenceEvery: 1,
        handoffTime: '09:00',
        handoffWeekday: 1,
        activeWindows: [],
        startsAt: new Date('2027-01-04T08:00:00Z'),
      },
      {
        name: 'Office hours',
        memberSourceIds: [DANA, EMIL],
        cadence: 'daily',
        cadenceEvery: 1,
        handoffTime: '09:00',
        handoffWeekday: 1,
        activeWindows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }],
        startsAt: new Date('2027-01-04T08:00:00Z'),
      },
    ]);
    expect(platform.overrides).toEqual([
      {
        personSourceId: FAY,
        start: new Date('2027-03-29T07:00:00Z'),
        end: new Date('2027-03-29T17:00:00Z'),
      },
    ]);

    const payments = scheduleNamed(snapshot, 'Payments');
    expect(payments.timeZone).toBe('America/Chicago');
    expect(
      payments.layers?.map((l) => [
        l.name,
        l.memberSourceIds,
        l.cadence,
        l.handoffTime,
        l.handoffWeekday,
        l.activeWindows,
      ]),
    ).toEqual([
      // start_rotation_from_user_index 1: dana holds the first turn
      [
        'Day',
        [DANA, CHEN],
        'daily',
        '08:00',
        1,
        [{ days: [0, 1, 2, 3, 4, 5, 6], start: '08:00', end: '20:00' }],
      ],
      [
        'Night',
        [ADA, FAY],
        'daily',
        '20:00',
        1,
        [{ days: [0, 1, 2, 3, 4, 5, 6], start: '20:00', end: '08:00' }],
      ],
      [
        'Weekend lead',
        [BRAM, EMIL],
        'weekly',
        '18:00',
        5,
        [
          { days: [5], start: '18:00', end: '00:00' },
          { days: [6], start: '00:00', end: '00:00' },
          { days: [0], start: '00:00', end: '00:00' },
          { days: [1], start: '00:00', end: '08:00' },
        ],
      ],
    ]);
    expect(payments.overrides).toEqual([
      {
        personSourceId: EMIL,
        start: new Date('2027-03-13T20:00:00Z'),
        end: new Date('2027-03-14T19:00:00Z'),
      },
    ]);
  });

  it('renders every schedule as Grafana OnCall does over the 90 days across both DST changes', async () => {
    const snapshot = await readGrafanaOnCall(input());
    expect(snapshot.schedules.map((s) => s.name)).toEqual(['Platform', 'Payments', 'Data']);
    for (const schedule of snapshot.schedules) {
      expect(schedule.rendered.length).toBeGreaterThan(50);
      expect(
        compareRenderings(schedule.rendered, renderSchedule(schedule, from, to), from, to),
      ).toEqual([]);
    }
    const platform = scheduleNamed(snapshot, 'Platform');
    // the window's from–to in final_shifts' dates: the last day included
    expect(fake.requests).toContain(
      '/api/v1/schedules/SPLATFORM0001/final_shifts?start_date=2027-03-01&end_date=2027-05-29',
    );
    // Office hours after the EU change: 09:00 CEST is 07:00 UTC; the override holds that Monday
    const at = (iso: string) =>
      platform.rendered.find((s) => s.start <= new Date(iso) && s.end > new Date(iso))
        ?.personSourceId;
    expect(at('2027-03-30T07:30:00Z')).toBe(at('2027-04-01T07:30:00Z'));
    expect(at('2027-03-29T07:30:00Z')).toBe(FAY);
    expect([DANA, EMIL]).toContain(at('2027-03-30T07:30:00Z'));
    // Payments, counted by hand from the shifts' starts: the day turn holds 08:00 local before
    // and after the US change (14:00 UTC, then 13:00), the night turn before it
    const payments = scheduleNamed(snapshot, 'Payments');
    const who = (iso: string) =>
      payments.rendered.find((s) => s.start <= new Date(iso) && s.end > new Date(iso))
        ?.personSourceId;
    expect(who('2027-03-02T13:30:00Z')).toBe(ADA); // night of 1 March, turn 56 of [ada, fay]
    expect(who('2027-03-02T14:30:00Z')).toBe(CHEN); // day 57 of [dana, chen]
    expect(who('2027-03-16T13:30:00Z')).toBe(CHEN); // day 71, 08:30 CDT
    expect(who('2027-03-16T12:30:00Z')).toBe(ADA); // night of 15 March, turn 70 of [ada, fay]
    expect(who('2027-03-07T15:00:00Z')).toBe(BRAM); // weekend 8 of [bram, emil]
    expect(who('2027-03-14T12:00:00Z')).toBe(EMIL); // the override across the change
  });

  it('makes a schedule whose shift ends inside the window a scheduled one, and says why', async () => {
    const snapshot = await readGrafanaOnCall(input());
    const data = scheduleNamed(snapshot, 'Data');
    expect(data.layers).toBeNull();
    const note = snapshot.notes.find((n) => n.subject === 'Schedule “Data”');
    expect(note?.level).toBe('warning');
    expect(note?.message).toMatch(/scheduled rotation/);
    expect(note?.message).toMatch(/“Spring cover”: it ends on 2027-04-15T00:00:00 \(UTC\)/);
    // its rendering is Grafana's own: after mid-April only the fortnight rotation is left
    const evening = data.rendered.filter((s) => s.start >= new Date('2027-04-15T00:00:00Z'));
    expect(new Set(evening.map((s) => s.personSourceId))).toEqual(new Set([EMIL, FAY, ADA]));
    expect(data.rendered.some((s) => [BRAM, CHEN].includes(s.personSourceId))).toBe(true);
  });

  it('refuses shifts Baton cannot hold as layers, and the rendering still matches', async () => {
    const office = fake.account.shifts.find((s) => s.id === 'OA2OFFICEHRS0') as FakeShift;
    // three people on weekdays: Grafana passes the turn each weekday, Baton each day
    office.rolling_users = [[DANA], [EMIL], [FAY]];
    const night = fake.account.shifts.find((s) => s.id === 'OB2NIGHTSHIFT') as FakeShift;
    night.rolling_users = [[ADA, FAY], [BRAM]];
    const snapshot = await readGrafanaOnCall(input());
    const platform = scheduleNamed(snapshot, 'Platform');
    const payments = scheduleNamed(snapshot, 'Payments');
    expect(platform.layers).toBeNull();
    expect(payments.layers).toBeNull();
    const messages = snapshot.notes.map((n) => `${n.subject}: ${n.message}`).join('\n');
    expect(messages).toMatch(/Schedule “Platform”: .*“Office hours”: on chosen days .* 3 people/);
    expect(messages).toMatch(
      /Schedule “Payments”: .*“Night”: a turn has more or fewer than one user/,
    );
    // two people at once: both are in Grafana's final shifts
    const both = payments.rendered.filter(
      (s) =>
        s.start.getTime() ===
        payments.rendered.find((x) => x.personSourceId === FAY)?.start.getTime(),
    );
    expect(both.map((s) => s.personSourceId).sort()).toEqual([ADA, FAY].sort());
    for (const schedule of [platform, payments]) {
      expect(
        compareRenderings(schedule.rendered, renderSchedule(schedule, from, to), from, to),
      ).toEqual([]);
    }
  });

  it('makes an iCal schedule a scheduled rotation of its final shifts', async () => {
    fake.account.schedules.push({
      id: 'SICAL00000004',
      name: 'Support calendar',
      type: 'ical',
      team_id: null,
      time_zone: 'UTC',
      on_call_now: [],
      shifts: [],
      ical_url_overrides: null,
      slack: { channel_id: null, user_group_id: null },
    });
    const snapshot = await readGrafanaOnCall(input());
    const calendar = scheduleNamed(snapshot, 'Support calendar');
    expect(calendar.layers).toBeNull();
    expect(
      snapshot.notes.find((n) => n.subject === 'Schedule “Support calendar”')?.message,
    ).toMatch(
      /scheduled rotation .* because its shifts come from an iCal calendar, not from on-call shifts/,
    );
  });

  it('maps escalation chains: waits delay the next step, repeats, and says what it leaves out', async () => {
    const snapshot = await readGrafanaOnCall(input());
    expect(snapshot.policies).toEqual([
      {
        sourceId: 'FPLATFORMCHN1',
        name: 'Platform default',
        repeat: 5,
        loopDelayMinutes: 10,
        steps: [
          { delayMinutes: 0, targets: [{ kind: 'schedule', sourceId: 'SPLATFORM0001' }] },
          {
            delayMinutes: 5,
            targets: [
              { kind: 'person', sourceId: ADA },
              { kind: 'person', sourceId: BRAM },
            ],
          },
          { delayMinutes: 15, targets: [{ kind: 'schedule', sourceId: 'SDATA00000003' }] },
        ],
      },
      {
        sourceId: 'FPAYMENTSCHN2',
        name: 'Payments',
        repeat: 0,
        loopDelayMinutes: null,
        steps: [
          {
            delayMinutes: 0,
            targets: [
              { kind: 'person', sourceId: CHEN },
              { kind: 'schedule', sourceId: 'SPAYMENTS0002' },
            ],
          },
          {
            delayMinutes: 2,
            targets: [
              { kind: 'person', sourceId: DANA },
              { kind: 'person', sourceId: FAY },
            ],
          },
        ],
      },
    ]);
    const about = (name: string) =>
      snapshot.notes
        .filter((n) => n.subject === `Escalation chain “${name}”`)
        .map((n) => n.message);
    expect(about('Platform default')).toEqual([
      'step 6 (notify_user_group) notifies a Slack user group, so it is not imported',
    ]);
    expect(about('Payments')).toEqual([
      "step 4 (notify_person_next_each_time) notifies one of its people in turn each time; Baton's step notifies them all",
      'step 4 (notify_person_next_each_time) waits 90 s, rounded to 2 minutes',
      'step 5 (resolve) resolves the alert group, so it is not imported',
    ]);
  });

  it('maps integrations to Baton sources with their default route chain', async () => {
    const snapshot = await readGrafanaOnCall(input());
    expect(snapshot.integrations).toEqual([
      {
        sourceId: 'CPROMETHEUS01',
        name: 'Prometheus',
        source: 'alertmanager',
        policySourceId: 'FPLATFORMCHN1',
        scheduleSourceId: null,
      },
      {
        sourceId: 'CGRAFANAALRT2',
        name: 'Grafana Alerting',
        source: 'grafana',
        policySourceId: 'FPAYMENTSCHN2',
        scheduleSourceId: null,
      },
      {
        sourceId: 'CDEPLOYHOOK03',
        name: 'Deploy hook',
        source: 'generic',
        policySourceId: 'FPLATFORMCHN1',
        scheduleSourceId: null,
      },
      {
        sourceId: 'CZABBIX000004',
        name: 'Zabbix',
        source: 'generic',
        policySourceId: 'FPAYMENTSCHN2',
        scheduleSourceId: null,
      },
    ]);
    const messages = snapshot.notes.map((n) => `${n.subject}: ${n.message}`);
    expect(messages).toContain(
      'Integration “Zabbix”: is of type zabbix, which Baton has no format for; it becomes a generic JSON integration',
    );
    expect(messages).toContain(
      'Integration “Prometheus”: its route matching “team="payments"” is not imported: every alert escalates by the default route\'s chain',
    );
  });
});

describe('readGrafanaOnCall refusals', () => {
  it('never follows a next page to another address with the token', async () => {
    const plain = input().get;
    const asked: string[] = [];
    const err = await refusal(
      readGrafanaOnCall(
        input({
          get: async (url, headers) => {
            asked.push(url);
            const answer = await plain(url, headers);
            return {
              ...answer,
              body: {
                ...(answer.body as object),
                next: 'https://elsewhere.example/api/v1/users/?page=2',
              },
            };
          },
        }),
      ),
    );
    expect(err.message).toBe(
      `Grafana OnCall pointed the next page of users/ at another address (elsewhere.example); Baton sends the token only to ${new URL(fake.url).host}`,
    );
    expect(asked).toEqual([`${fake.url}/api/v1/users/`]);
  });

  it('names the refused key', async () => {
    const err = await refusal(readGrafanaOnCall(input({ apiKey: 'not-the-token' })));
    expect(err.kind).toBe('input');
    expect(err.message).toBe(
      'Grafana OnCall refused the API key (401): check the key and that it may read this account',
    );
    expect(err.message).not.toContain('not-the-token');
  });

  it('asks for the API address and the token', async () => {
    const noUrl = await refusal(readGrafanaOnCall(input({ apiUrl: undefined })));
    expect([noUrl.kind, noUrl.message]).toEqual([
      'input',
      "Give Grafana OnCall's API address, e.g. https://oncall.example.com",
    ]);
    const badUrl = await refusal(readGrafanaOnCall(input({ apiUrl: 'oncall example' })));
    expect(badUrl.kind).toBe('input');
    expect(badUrl.message).toMatch(/not a valid URL/);
    const noKey = await refusal(readGrafanaOnCall(input({ apiKey: '  ' })));
    expect(noKey.kind).toBe('input');
    expect(noKey.message).toMatch(/Give a Grafana OnCall API token/);
    expect(fake.requests).toEqual([]);
  });

  it('says when Grafana OnCall does not answer in time', async () => {
    fake.mode = 'hang';
    const err = await refusal(readGrafanaOnCall(input({}, 1000)));
    expect(err.kind).toBe('source');
    expect(err.message).toBe('Grafana OnCall did not answer within 1 s');
  });

  it('says which answer it could not read', async () => {
    fake.mode = 'malformed';
    const err = await refusal(readGrafanaOnCall(input()));
    expect(err.message).toBe(
      'Grafana OnCall answered /api/v1/users/ with data Baton cannot read: it is not a page of results',
    );
    fake.mode = 'ok';
    (fake.account.shifts[0] as { duration: unknown }).duration = 'a week';
    const field = await refusal(readGrafanaOnCall(input()));
    expect(field.message).toBe(
      'Grafana OnCall answered /api/v1/on_call_shifts/ with data Baton cannot read: result 1 has no valid duration',
    );
    (fake.account.shifts[0] as { duration: unknown }).duration = 7 * 86_400;
    (fake.account.shifts[2] as { start: unknown }).start = 'next Monday';
    const date = await refusal(readGrafanaOnCall(input()));
    expect(date.message).toBe(
      'Grafana OnCall answered /api/v1/on_call_shifts/ with data Baton cannot read: result 3 has no valid start',
    );
  });
});
