import type { Incident } from '@shared/contracts/incidents';
import { describe, expect, test } from 'vitest';
import {
  alertFactsOf,
  assigneesText,
  DEFAULT_FILTERS,
  filtersFromSearch,
  incidentListQuery,
  nextStepDefault,
  responseTimes,
  searchFromFilters,
  statusFilterCount,
  stepProgressText,
} from './incident-view';

const policy = (stepCount: number, repeat: number): Incident['escalationPolicy'] => ({
  id: 1,
  name: 'Default',
  repeat,
  stepCount,
});

describe('incidentListQuery', () => {
  test.each([
    [DEFAULT_FILTERS, null, 'open=true&limit=25'],
    [{ ...DEFAULT_FILTERS, status: 'all' as const }, null, 'limit=25'],
    [{ ...DEFAULT_FILTERS, status: 'resolved' as const }, 40, 'status=resolved&limit=25&before=40'],
    [
      { status: 'triggered' as const, severity: 'P1' as const, rotationId: 7, q: '  checkout ' },
      null,
      'status=triggered&severity=P1&rotationId=7&q=checkout&limit=25',
    ],
  ])('%j before %j is %s', (filters, before, query) => {
    expect(incidentListQuery(filters, before)).toBe(query);
  });
});

describe('the address keeps the filters', () => {
  test('the defaults leave the address empty and read back as the defaults', () => {
    expect(searchFromFilters(DEFAULT_FILTERS).toString()).toBe('');
    expect(filtersFromSearch(new URLSearchParams())).toEqual(DEFAULT_FILTERS);
  });

  test('filters survive a round trip', () => {
    const filters = {
      status: 'acknowledged' as const,
      severity: 'P3' as const,
      rotationId: 12,
      q: 'db',
    };
    expect(filtersFromSearch(searchFromFilters(filters))).toEqual(filters);
  });

  test('nonsense in the address reads as the defaults', () => {
    expect(
      filtersFromSearch(new URLSearchParams('status=lost&severity=P9&rotation=-3&q=x')),
    ).toEqual({ ...DEFAULT_FILTERS, q: 'x' });
  });
});

test('statusFilterCount adds the counts a tab holds', () => {
  const counts = { triggered: 2, acknowledged: 3, resolved: 10 };
  expect(statusFilterCount(counts, 'all')).toBe(15);
  expect(statusFilterCount(counts, 'open')).toBe(5);
  expect(statusFilterCount(counts, 'triggered')).toBe(2);
  expect(statusFilterCount(counts, 'resolved')).toBe(10);
});

describe('stepProgressText', () => {
  test.each([
    [2, 1, 3, 1, 'Step 2 of 3 (loop 1 of 2)'],
    [3, 2, 3, 1, 'Step 3 of 3 (loop 2 of 2)'],
    [1, 1, 3, 0, 'Step 1 of 3'],
  ])('step %i loop %i of %i steps repeat %i', (currentStep, currentLoop, steps, repeat, words) => {
    expect(
      stepProgressText({ currentStep, currentLoop, escalationPolicy: policy(steps, repeat) }),
    ).toBe(words);
  });
});

test('nextStepDefault offers the next step, and the last from the last', () => {
  expect(nextStepDefault({ currentStep: 1, escalationPolicy: policy(3, 0) })).toBe(2);
  expect(nextStepDefault({ currentStep: 3, escalationPolicy: policy(3, 0) })).toBe(3);
  expect(nextStepDefault({ currentStep: 1, escalationPolicy: policy(1, 0) })).toBe(1);
});

test('assigneesText names who it is with', () => {
  expect(assigneesText({ assignees: [] })).toBe('Nobody');
  expect(assigneesText({ assignees: [{ id: 1, name: 'Priya Shah' }] })).toBe('Priya Shah');
  expect(
    assigneesText({
      assignees: [
        { id: 1, name: 'Priya Shah' },
        { id: 2, name: 'Noah Lee' },
      ],
    }),
  ).toBe('Priya Shah and Noah Lee');
});

describe('alertFactsOf', () => {
  const base = {
    raisedBy: { kind: 'user', user: { id: 1, name: 'Iris' }, name: 'Iris' },
    integration: null,
    alertCount: 0,
    storm: false,
  };
  test.each([
    ['a person’s incident', base, null],
    [
      'an alert incident',
      {
        raisedBy: { kind: 'integration', user: null, name: 'Prometheus' },
        integration: { id: 3, name: 'Prometheus' },
        alertCount: 4,
        storm: false,
      },
      { integration: { id: 3, name: 'Prometheus' }, alertCount: 4, storm: false },
    ],
    [
      'the alert storm',
      { ...base, integration: { id: 3, name: 'Prometheus' }, alertCount: 120, storm: true },
      { integration: { id: 3, name: 'Prometheus' }, alertCount: 120, storm: true },
    ],
    [
      'raised by an integration since deleted',
      { ...base, raisedBy: { kind: 'integration', user: null, name: 'Old' }, alertCount: 2 },
      { integration: null, alertCount: 2, storm: false },
    ],
  ])('%s', (_name, incident, expected) => {
    expect(alertFactsOf(incident as Parameters<typeof alertFactsOf>[0])).toEqual(expected);
  });
});

describe('response times (decision 261)', () => {
  const raised = '2026-11-02T12:00:00.000Z';
  const at = (minutes: number) => new Date(Date.parse(raised) + minutes * 60_000).toISOString();
  test.each([
    [
      'open',
      null,
      null,
      { toAcknowledge: 'Not acknowledged yet', toResolve: 'Open for 1 h 30 min' },
    ],
    ['acknowledged', at(4), null, { toAcknowledge: '4 min', toResolve: 'Open for 1 h 30 min' }],
    ['resolved', at(4), at(62), { toAcknowledge: '4 min', toResolve: '1 h 2 min' }],
    [
      'resolved unacknowledged',
      null,
      at(7),
      { toAcknowledge: 'Resolved without an acknowledgement', toResolve: '7 min' },
    ],
  ])('%s', (_case, acknowledgedAt, resolvedAt, words) => {
    expect(
      responseTimes({ createdAt: raised, acknowledgedAt, resolvedAt }, new Date(at(90))),
    ).toEqual(words);
  });
});
