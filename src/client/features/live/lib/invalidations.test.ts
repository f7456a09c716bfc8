import type { ChangeEvent } from '@shared/contracts/live-events';
import { describe, expect, test } from 'vitest';
import { showsChange } from './invalidations';

const event = (kind: ChangeEvent['kind'], entityId: number | null, rotationId: number | null) =>
  ({ id: 1, kind, entityId, rotationId }) as ChangeEvent;

// The keys the screens use (features/*/api), a few of each.
const KEYS = {
  rotations: ['/api/rotations'],
  rotation7: ['/api/rotations', 7],
  rotation8: ['/api/rotations', 8],
  rotation7Pages: ['/api/rotations', 7, 'pages'],
  rotation8Pages: ['/api/rotations', 8, 'pages'],
  rotation7Schedules: ['/api/rotations', 7, 'schedules'],
  mine: ['/api/user/rotations'],
  recent: ['/api/handoffs/recent', { limit: 5 }],
  history7: ['/api/audit-log/handoffs', { rotationId: 7, limit: 10 }],
  team: ['/api/on-call-team'],
  calendar: ['/api/calendar', '2026-11-01', '2026-12-01'],
  feed: ['/api/calendar/feed'],
  incidents: ['/api/incidents', 'list', ''],
  incident3: ['/api/incidents', 3],
  myIncidents: ['/api/incidents', 'mine'],
  myPages: ['/api/user/pages'],
  myFailures: ['/api/user/page-delivery-failures'],
  coverage: ['/api/coverage-requests'],
  person5: ['/api/users', 5],
  person5TimeOff: ['/api/users', 5, 'time-off'],
  person6TimeOff: ['/api/users', 6, 'time-off'],
  users: ['/api/users'],
  me: ['/api/auth/user'],
  invitations: ['/api/invitations'],
  validate: ['/api/invitations', 'tok', 'validate'],
  notices: ['/api/user/shift-notices'],
  policies: ['/api/escalation-policies'],
  integrations: ['/api/integrations', 'list', 'rotationId=7'],
  help: ['/api/help/timings'],
} as const;
type Name = keyof typeof KEYS;

const shown = (e: ChangeEvent, viewerId: number | null = 5) =>
  (Object.keys(KEYS) as Name[]).filter((name) => showsChange(KEYS[name], e, viewerId)).sort();

describe('showsChange', () => {
  test.each<[string, ChangeEvent, Name[], Name[]]>([
    [
      'a pass of the baton on rotation 7 (its rotation event)',
      event('rotation', 7, 7),
      [
        'rotations',
        'rotation7',
        'rotation7Pages',
        'rotation7Schedules',
        'mine',
        'team',
        'calendar',
      ],
      ['rotation8', 'rotation8Pages', 'recent', 'feed', 'incidents', 'help', 'me'],
    ],
    [
      'its handoff',
      event('handoff', 40, 7),
      ['recent', 'history7', 'rotations', 'rotation7', 'mine'],
      ['rotation8', 'incidents', 'users', 'help'],
    ],
    [
      'an incident on rotation 7',
      event('incident', 3, 7),
      ['incidents', 'incident3', 'myPages', 'rotation7Pages', 'integrations'],
      ['rotation8Pages', 'rotations', 'recent', 'help'],
    ],
    [
      'a coverage request',
      event('coverage', 9, 7),
      ['coverage', 'rotation7', 'mine', 'calendar'],
      ['rotation8', 'incidents', 'help'],
    ],
    [
      "person 5's time off",
      event('time-off', 5, null),
      ['person5', 'person5TimeOff', 'calendar', 'rotations', 'team'],
      ['person6TimeOff', 'incidents', 'help'],
    ],
    [
      'the signed-in person (5) changed',
      event('user', 5, null),
      ['me', 'users', 'person5', 'team', 'recent'],
      ['help', 'incidents', 'invitations'],
    ],
    ['an invitation', event('invitation', 2, null), ['invitations'], ['validate', 'users']],
    ['a shift notice', event('shift-notice', 5, 7), ['notices'], ['rotations', 'calendar']],
    ['a policy', event('escalation-policy', 2, null), ['policies', 'rotation7'], ['incidents']],
    ['an integration', event('integration', 2, 7), ['integrations'], ['rotations']],
    ['a session', event('session', null, null), [], ['me', 'rotations']],
  ])('%s', (_name, e, included, excluded) => {
    const names = shown(e);
    for (const name of included) expect(names).toContain(name);
    for (const name of excluded) expect(names).not.toContain(name);
  });

  test('an incident that concerns the viewer reads their own incident reads again; one that does not, only the rest (decision 287)', () => {
    const own: Name[] = ['myIncidents', 'myPages', 'myFailures'];
    const everyone: Name[] = ['incidents', 'incident3', 'rotation7Pages', 'integrations'];
    const theirs = shown({ ...event('incident', 3, 7), concernsYou: true });
    const notTheirs = shown({ ...event('incident', 3, 7), concernsYou: false });
    const unknown = shown(event('incident', 3, 7));
    for (const name of [...own, ...everyone]) {
      expect(theirs).toContain(name);
      expect(unknown).toContain(name);
    }
    for (const name of everyone) expect(notTheirs).toContain(name);
    for (const name of own) expect(notTheirs).not.toContain(name);
  });

  test("another person's change leaves the signed-in user's own reads alone", () => {
    expect(shown(event('user', 6, null))).not.toContain('me');
  });
});
