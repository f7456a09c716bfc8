import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CALLERS, type Caller, type RouteAccess } from '../../tests/access/types';
import { createTestApp, type TestApp } from '../../tests/setup/test-app';
import type { User } from '../shared/contracts/users';
import { type Action, can } from '../shared/domain/permissions';

/**
 * Calls every API route as anonymous, as each role, and with forged identity headers, and checks
 * each answer against the tables in tests/access/*.ts. A route missing from the tables fails.
 */
const modules = import.meta.glob<{ access: RouteAccess[] }>('../../tests/access/*.ts', {
  eager: true,
});
const table = Object.entries(modules)
  // rotation-scoped.ts is the table of src/server/rotation-scope-access.test.ts (decision 233).
  .filter(([file]) => !file.endsWith('/types.ts') && !file.endsWith('/rotation-scoped.ts'))
  .flatMap(([, m]) => m.access);

let t: TestApp;
const users = {} as Record<Exclude<Caller, 'anonymous'>, User>;

beforeAll(async () => {
  t = await createTestApp();
  const cast = await t.cast({ admin: {}, manager: {}, olivia: {}, iris: {} });
  users.admin = cast.admin;
  users.manager = cast.manager;
  users['on-call'] = cast.olivia;
  users.incident_manager = cast.iris;
});
afterAll(() => t.close());

const key = (r: { method: string; route: string }) => `${r.method} ${r.route}`;

test('every registered route has an entry in the access table, and every entry a route', () => {
  const registered = t.app.routeList
    .filter((r) => r.url.startsWith('/api') || r.url === '/healthz' || r.url === '/readyz')
    .filter((r) => r.url !== '/api/*')
    .map((r) => key({ method: r.method, route: r.url }))
    .sort();
  const listed = table.map(key).sort();
  expect(listed).toEqual(registered);
});

/** callRoute calls a table's route as the caller, with forged identity headers when asked. */
async function callRoute(entry: RouteAccess, caller: Caller, forge = false) {
  const headers: Record<string, string> = {};
  // A fresh session per call, not t.call's kept one: some routes (logout) end the session.
  if (caller !== 'anonymous') headers.cookie = await t.cookieFor(users[caller]);
  if (forge) {
    headers['x-user-id'] = String(users.admin.id);
    headers['x-user-role'] = 'admin';
  }
  return t.call(null, entry.method, entry.url, entry.body, headers);
}

const isDenied = (status: number) => status === 401 || status === 403;

describe.each(table)('$method $route', (entry) => {
  test.each(CALLERS.map((c) => [c]))('as %s', async (caller) => {
    const allowed = entry.allowed === 'everyone' || entry.allowed.includes(caller);
    const res = await callRoute(entry, caller);
    if (entry.route === '/api/auth/login') {
      expect(res.statusCode).toBe(401); // wrong password: refused for everyone alike
      return;
    }
    if (entry.status !== undefined) {
      // A key route: the session neither helps nor hurts, so everyone gets the same answer.
      expect(res.statusCode, res.body).toBe(entry.status);
      return;
    }
    if (allowed) {
      expect(isDenied(res.statusCode), `${res.statusCode} ${res.body}`).toBe(false);
    } else {
      expect(res.statusCode, res.body).toBe(caller === 'anonymous' ? 401 : 403);
    }
    expect(res.statusCode).toBeLessThan(500);
    // Forged X-User-Id / X-User-Role headers (claiming admin) change nothing.
    if (!allowed) {
      const forged = await callRoute(entry, caller, true);
      expect(forged.statusCode).toBe(res.statusCode);
    }
  });
});

/**
 * The routes that enforce one action of the shared permission table (the one the client uses to
 * show controls): their access entries must allow exactly the roles that table allows, so the
 * route tables above and PERMISSIONS cannot drift apart.
 */
const ROUTE_PERMISSIONS: Record<string, Action> = {
  'GET /api/rotations': 'rotation.view',
  'GET /api/rotations/:id': 'rotation.view',
  'POST /api/rotations': 'rotation.create',
  'PATCH /api/rotations/:id': 'rotation.edit',
  'DELETE /api/rotations/:id': 'rotation.delete',
  'POST /api/rotations/:id/suspend': 'rotation.suspend',
  'POST /api/rotations/:id/activate': 'rotation.suspend',
  'PATCH /api/rotations/:id/type': 'rotation.changeType',
  'PATCH /api/rotations/:id/members/reorder': 'member.reorder',
  'POST /api/rotations/:id/on-call': 'member.add',
  'DELETE /api/rotations/:id/on-call/:userId': 'member.remove',
  'POST /api/rotations/:id/take-oncall': 'baton.hold',
  'POST /api/rotations/:id/handoff': 'baton.hold',
  'POST /api/rotations/:id/cover': 'baton.hold',
  'POST /api/handoffs/:id/acknowledge': 'baton.hold',
  'POST /api/coverage-requests/:id/accept': 'baton.hold',
  'POST /api/rotations/:id/assign-oncall': 'baton.reassign',
  'POST /api/rotations/:id/page': 'page.send',
  'GET /api/rotations/:id/pages': 'page.viewHistory',
  'POST /api/rotations/:id/schedules': 'schedule.manage',
  'DELETE /api/rotation-schedules/:scheduleId': 'schedule.manage',
  'GET /api/audit-log/handoffs': 'handoff.viewHistory',
  'GET /api/handoffs/recent': 'handoff.viewHistory',
  'GET /api/audit-log/handoffs.csv': 'audit.export',
  'GET /api/audit-log/admin-events': 'audit.viewAdmin',
  'GET /api/users': 'users.view',
  'PATCH /api/users/:id': 'profile.editAny',
  'DELETE /api/users/:id': 'users.manage',
  'PATCH /api/admin/users/:id/roles': 'roles.change',
  'GET /api/invitations': 'invitations.manage',
  'POST /api/invitations': 'invitations.manage',
  'DELETE /api/invitations/:id': 'invitations.manage',
  'GET /api/debug/database': 'debug.view',
  'GET /api/debug/rotations-compare': 'debug.view',
  'GET /api/escalation-policies': 'escalationPolicy.view',
  'POST /api/escalation-policies': 'escalationPolicy.edit',
  'GET /api/escalation-policies/:id': 'escalationPolicy.view',
  'PATCH /api/escalation-policies/:id': 'escalationPolicy.edit',
  'DELETE /api/escalation-policies/:id': 'escalationPolicy.edit',
  'GET /api/escalation-policies/:id/preview': 'escalationPolicy.view',
  'GET /api/incidents/:id/alerts': 'page.viewHistory',
};

describe('the access tables agree with the shared permission table', () => {
  test.each(Object.entries(ROUTE_PERMISSIONS))('%s follows %s', (route, action) => {
    const entry = table.find((e) => key(e) === route);
    expect(entry, `${route} is in the access tables`).toBeDefined();
    const expected = CALLERS.filter((c) => c !== 'anonymous' && can([c], action));
    expect([...(entry?.allowed ?? [])].sort()).toEqual([...expected].sort());
  });
});
