import type { ImportSourceName } from '../../../shared/contracts/imports';
import type { ImportReaders } from './readers';
import { renderSchedule } from './snapshot-rendering';
import type { SourceReader, SourceSchedule, SourceSnapshot } from './source-snapshot';

/**
 * A hand-built account for the import's API tests (issue 34): two layered schedules (12-hour
 * shifts under a weekly layer on duty on weekdays in New York; a daily layer in Berlin) with an
 * override, across both spring DST changes of 2027, a policy and an integration. Its `rendered` is
 * Baton's own layer engine over the snapshot (the readers' tests check that it is the source's).
 */

/** The instant the tests plan at: the window runs 90 days from here, across 14 and 28 March. */
export const IMPORT_NOW = '2027-03-01T12:00:00Z';

export const SOURCE_PEOPLE = [
  { sourceId: 'PADA', name: 'Ada Source', email: 'ADA@example.com' },
  { sourceId: 'PBEN', name: 'Ben Source', email: 'ben@example.com' },
  { sourceId: 'PCY', name: 'Cy Source', email: 'cy@example.com' },
  { sourceId: 'PDEE', name: 'Dee New', email: 'dee@example.com' },
  { sourceId: 'PEVE', name: 'Eve Nomail', email: null },
  { sourceId: 'POUT', name: 'Oscar Outside', email: 'oscar@elsewhere.org' },
];

/** The account's schedules, before `rendered`: tests change them and read again. */
export function platformSchedule(): Omit<SourceSchedule, 'rendered'> {
  return {
    sourceId: 'P123',
    name: 'Platform',
    timeZone: 'America/New_York',
    layers: [
      {
        name: 'Around the clock',
        memberSourceIds: ['PADA', 'PBEN'],
        cadence: 'hourly',
        cadenceEvery: 12,
        handoffTime: '08:00',
        handoffWeekday: 1,
        activeWindows: [],
        startsAt: new Date('2027-02-01T13:00:00Z'),
      },
      {
        name: 'Office hours',
        memberSourceIds: ['PCY', 'PBEN'],
        cadence: 'weekly',
        cadenceEvery: 1,
        handoffTime: '09:00',
        handoffWeekday: 1,
        activeWindows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }],
        startsAt: new Date('2027-02-01T14:00:00Z'),
      },
    ],
    overrides: [
      {
        start: new Date('2027-03-20T12:00:00Z'),
        end: new Date('2027-03-21T12:00:00Z'),
        personSourceId: 'PCY',
      },
    ],
  };
}

export function databaseSchedule(): Omit<SourceSchedule, 'rendered'> {
  return {
    sourceId: 'P456',
    name: 'Database',
    timeZone: 'Europe/Berlin',
    layers: [
      {
        name: 'Days',
        memberSourceIds: ['PCY', 'PADA'],
        cadence: 'daily',
        cadenceEvery: 1,
        handoffTime: '10:00',
        handoffWeekday: 1,
        activeWindows: [],
        startsAt: new Date('2027-01-04T09:00:00Z'),
      },
    ],
    overrides: [],
  };
}

/** The account a test reads: its schedules, changeable between reads. */
export interface FakeAccount {
  /** which account (the API address) */
  account: string;
  /** the schedules; `rendered` when given (a schedule without layers), else their rendering */
  schedules: (Omit<SourceSchedule, 'rendered'> & { rendered?: SourceSchedule['rendered'] })[];
  policies: SourceSnapshot['policies'];
  integrations: SourceSnapshot['integrations'];
}

export function fakeAccount(): FakeAccount {
  return {
    account: 'https://api.pagerduty.test',
    schedules: [platformSchedule(), databaseSchedule()],
    policies: [
      {
        sourceId: 'EP1',
        name: 'Platform escalation',
        repeat: 2,
        steps: [
          { delayMinutes: 0, targets: [{ kind: 'schedule', sourceId: 'P123' }] },
          {
            delayMinutes: 15,
            targets: [
              { kind: 'person', sourceId: 'PADA' },
              { kind: 'person', sourceId: 'PDEE' },
            ],
          },
        ],
      },
    ],
    integrations: [
      {
        sourceId: 'I1',
        name: 'Platform API',
        source: 'pagerduty',
        policySourceId: 'EP1',
        scheduleSourceId: null,
      },
    ],
  };
}

/** snapshotOf is the account as a reader would answer it over the window. */
export function snapshotOf(
  account: FakeAccount,
  window: { from: Date; to: Date },
  source: ImportSourceName = 'pagerduty',
): SourceSnapshot {
  return {
    source,
    account: account.account,
    window,
    people: SOURCE_PEOPLE.map((p) => ({ ...p })),
    schedules: account.schedules.map((s) => ({
      ...s,
      rendered: s.rendered ?? renderSchedule({ ...s, rendered: [] }, window.from, window.to),
    })),
    policies: account.policies,
    integrations: account.integrations,
    notes: [{ level: 'info', subject: 'Account', message: 'Read by the test reader' }],
  };
}

/** readersFor answers `account` for PagerDuty, as a reader would; the other sources have none. */
export function readersFor(account: () => FakeAccount): ImportReaders {
  const reader: SourceReader = async (input) => snapshotOf(account(), input.window);
  return {
    pagerduty: reader,
    opsgenie: undefined,
    'grafana-oncall': undefined,
    ics: undefined,
    csv: undefined,
  };
}
