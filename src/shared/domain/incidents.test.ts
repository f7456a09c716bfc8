import { describe, expect, test } from 'vitest';
import {
  durationWords,
  type IncidentFacts,
  incidentActions,
  incidentTimings,
  isIncidentResponder,
} from './incidents';
import type { PageStatus } from './paging';
import type { Role } from './roles';

const actor = (id: number, ...roles: Role[]) => ({ id, roles });
const facts = (status: PageStatus): IncidentFacts => ({
  status,
  raisedById: 20,
  notifiedIds: [1, 2],
  rotation: { createdById: 10, memberUserIds: [1, 2, 11] },
});

describe('who answers for an incident', () => {
  test.each([
    ['a person it notified', actor(1, 'on-call'), true],
    ['the person who raised it', actor(20, 'on-call'), true],
    ['a manager of its rotation (member)', actor(11, 'manager'), true],
    ['the manager who made its rotation', actor(10, 'manager'), true],
    ['a manager of another rotation', actor(30, 'manager'), false],
    ['an incident manager', actor(31, 'incident_manager'), true],
    ['an administrator', actor(32, 'admin'), true],
    ['an on-call member it never notified', actor(11, 'on-call'), false],
  ])('%s: %s', (_who, person, expected) => {
    expect(isIncidentResponder(person, facts('triggered'))).toBe(expected);
  });
});

describe('what a responder may do in each state (decision 261: reopen)', () => {
  test.each([
    ['triggered', { acknowledge: true, resolve: true, escalate: true, reopen: false }],
    ['escalated', { acknowledge: true, resolve: true, escalate: true, reopen: false }],
    ['acknowledged', { acknowledge: false, resolve: true, escalate: false, reopen: false }],
    ['resolved', { acknowledge: false, resolve: false, escalate: false, reopen: true }],
  ] as const)('%s', (status, expected) => {
    expect(incidentActions(actor(1, 'on-call'), facts(status))).toMatchObject(expected);
  });

  test('someone who does not answer for it may not reopen it', () => {
    expect(incidentActions(actor(30, 'manager'), facts('resolved')).reopen).toBe(false);
  });
});

describe('time to acknowledge and to resolve', () => {
  const raised = '2026-11-02T12:00:00.000Z';
  const at = (minutes: number) => new Date(Date.parse(raised) + minutes * 60_000).toISOString();
  const now = new Date(at(90));

  test.each([
    ['open, never acknowledged', null, null, { toAcknowledge: null, toResolve: null, openFor: 90 }],
    ['acknowledged at 4 minutes', at(4), null, { toAcknowledge: 4, toResolve: null, openFor: 90 }],
    ['resolved at 62 minutes', at(4), at(62), { toAcknowledge: 4, toResolve: 62, openFor: null }],
    [
      'resolved without an acknowledgement',
      null,
      at(7),
      { toAcknowledge: null, toResolve: 7, openFor: null },
    ],
  ])('%s', (_case, acknowledgedAt, resolvedAt, minutes) => {
    const timings = incidentTimings({ createdAt: raised, acknowledgedAt, resolvedAt }, now);
    const inMinutes = (ms: number | null) => (ms === null ? null : ms / 60_000);
    expect({
      toAcknowledge: inMinutes(timings.toAcknowledge),
      toResolve: inMinutes(timings.toResolve),
      openFor: inMinutes(timings.openFor),
    }).toEqual(minutes);
  });

  test.each([
    [0, 'under a minute'],
    [59_999, 'under a minute'],
    [60_000, '1 min'],
    [4 * 60_000 + 59_000, '4 min'],
    [60 * 60_000, '1 h'],
    [65 * 60_000, '1 h 5 min'],
    [24 * 60 * 60_000, '1 d'],
    [(2 * 24 * 60 + 3 * 60 + 7) * 60_000, '2 d 3 h'],
  ])('%i ms reads %s', (ms, words) => {
    expect(durationWords(ms)).toBe(words);
  });
});
