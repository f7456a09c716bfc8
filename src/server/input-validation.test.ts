import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  APP_ORIGIN,
  buildFuzzApp,
  type FuzzApp,
  fingerprint,
  readPool,
} from '../../tests/fuzz/endpoint-fuzz';
import { createTestDatabase } from '../../tests/setup/test-database';

/**
 * The inputs that answered 500 (issue 14 §3, and what the input fuzz found since), each refused
 * now with a 400 that names the field, and nothing written. The shared primitives behind them:
 * src/shared/contracts/primitives.ts (decision 166).
 */

let fuzz: FuzzApp;
let ids: { rotation: number; page: number; other: number };

beforeAll(async () => {
  fuzz = await buildFuzzApp(await createTestDatabase());
  const pool = await readPool(fuzz);
  // The fixed rotation the member holds, its open page, and a member who is neither caller.
  ids = {
    rotation: Math.min(...pool.rotationIds),
    page: Math.min(...pool.pageIds),
    other: Math.min(...pool.otherUserIds),
  };
});
afterAll(async () => {
  await fuzz?.close();
});

type Case = {
  caller: 'admin' | 'member';
  method: 'GET' | 'POST' | 'PATCH';
  url: () => string;
  body?: () => unknown;
  message: string;
};

const CASES: Record<string, Case> = {
  'NUL in handoff notes (the pass failed)': {
    caller: 'member',
    method: 'POST',
    url: () => `/api/rotations/${ids.rotation}/handoff`,
    body: () => ({ toUserId: fuzz.admin.id, notes: 'Pager\u0000 is quiet' }),
    message: 'notes: Notes must not contain control characters (line breaks and tabs are fine)',
  },
  'NUL in reassignment notes (found by the fuzz)': {
    caller: 'admin',
    method: 'POST',
    url: () => `/api/rotations/${ids.rotation}/assign-oncall`,
    body: () => ({ toUserId: fuzz.admin.id, notes: '\u0000' }),
    message: 'notes: Notes must not contain control characters (line breaks and tabs are fine)',
  },
  'NUL in the CSV export search (found by the fuzz)': {
    caller: 'admin',
    method: 'GET',
    url: () => '/api/audit-log/handoffs.csv?search=Priya%00Shah',
    message: 'search: Search must not contain control characters',
  },
  'a schedule entry starting in the year -271821 (found by the fuzz)': {
    caller: 'admin',
    method: 'POST',
    url: () => `/api/rotations/${ids.rotation}/schedules`,
    body: () => ({
      userId: fuzz.member.id,
      startTime: '-271821-04-20T00:00:00.000Z',
      endTime: '2028-06-30T08:50:11.745Z',
    }),
    message: 'startTime: Start time must be a valid date and time',
  },
  'NUL in a rotation name': {
    caller: 'admin',
    method: 'POST',
    url: () => '/api/rotations',
    body: () => ({ name: 'Plat\u0000form' }),
    message: 'name: Rotation name must not contain control characters such as tabs or line breaks',
  },
  'a tab inside a rotation name': {
    caller: 'admin',
    method: 'PATCH',
    url: () => `/api/rotations/${ids.rotation}`,
    body: () => ({ name: 'Plat\tform' }),
    message: 'name: Rotation name must not contain control characters such as tabs or line breaks',
  },
  'NUL in a rotation description': {
    caller: 'admin',
    method: 'PATCH',
    url: () => `/api/rotations/${ids.rotation}`,
    body: () => ({ description: 'Primary\u0000 on-call' }),
    message: 'description: Description must not contain control characters',
  },
  'NUL in a page message': {
    caller: 'admin',
    method: 'POST',
    url: () => `/api/rotations/${ids.rotation}/page`,
    body: () => ({ message: 'Checkout\u0000 is down', urgency: 'high' }),
    message: 'message: Message must not contain control characters',
  },
  'a lone surrogate in a page message': {
    caller: 'admin',
    method: 'POST',
    url: () => `/api/rotations/${ids.rotation}/page`,
    body: () => ({ message: 'Checkout \ud800 is down' }),
    message: 'message: Message must be valid Unicode text',
  },
  'NUL in an escalation reason': {
    caller: 'member',
    method: 'POST',
    url: () => `/api/pages/${ids.page}/escalate`,
    body: () => ({ reason: 'Not\u0000 answering' }),
    message: 'reason: Reason must not contain control characters',
  },
  'NUL in the audit log search (any signed-in user)': {
    caller: 'member',
    method: 'GET',
    url: () => '/api/audit-log/handoffs?search=a%00b',
    message: 'search: Search must not contain control characters',
  },
  'before=2147483648 on the page history (any signed-in user)': {
    caller: 'member',
    method: 'GET',
    url: () => `/api/rotations/${ids.rotation}/pages?before=2147483648`,
    message: 'before: before must be a whole number from 1 to 2147483647',
  },
  'before=9007199254740993 on the administrative trail (a bigserial id)': {
    caller: 'admin',
    method: 'GET',
    url: () => '/api/audit-log/admin-events?before=9007199254740993',
    message: 'before: before must be a whole number from 1 to 9007199254740991',
  },
  'userId: 2147483648 when adding a member': {
    caller: 'admin',
    method: 'POST',
    url: () => `/api/rotations/${ids.rotation}/on-call`,
    body: () => ({ userId: 2147483648 }),
    message: 'userId: userId must be a whole number from 1 to 2147483647',
  },
  'order: 2147483648 when adding a member': {
    caller: 'admin',
    method: 'POST',
    url: () => `/api/rotations/${ids.rotation}/on-call`,
    body: () => ({ userId: ids.other, order: 2147483648 }),
    message: 'order: order must be at most 2147483647',
  },
  'toUserId: 12884901888 when passing the baton': {
    caller: 'member',
    method: 'POST',
    url: () => `/api/rotations/${ids.rotation}/handoff`,
    body: () => ({ toUserId: 12884901888 }),
    message: 'toUserId: toUserId must be a whole number from 1 to 2147483647',
  },
  'a member id past int4 in a reorder': {
    caller: 'admin',
    method: 'PATCH',
    url: () => `/api/rotations/${ids.rotation}/members/reorder`,
    body: () => ({ members: [{ id: 4294967296, order: 0 }] }),
    message: 'members.0.id: members.id must be a whole number from 1 to 2147483647',
  },
  'a path id past int4': {
    caller: 'admin',
    method: 'GET',
    url: () => '/api/rotations/2147483648',
    message: 'id must be a whole number from 1 to 2147483647',
  },
  'a schedule entry starting in 4714 BC (before the timestamps PostgreSQL has)': {
    caller: 'admin',
    method: 'POST',
    url: () => `/api/rotations/${ids.rotation}/schedules`,
    body: () => ({
      userId: fuzz.member.id,
      startTime: '-004714-01-01T00:00:00Z',
      endTime: '2026-11-10T09:00:00Z',
    }),
    message: 'startTime: Start time must be a valid date and time',
  },
};

test.each(Object.entries(CASES))('%s: 400, nothing written', async (_name, c) => {
  const before = await fingerprint(fuzz.database);
  const res = await fuzz.app.inject({
    method: c.method,
    url: c.url(),
    headers: {
      cookie: fuzz.cookies[c.caller],
      ...(c.method !== 'GET' ? { origin: APP_ORIGIN } : {}),
    },
    ...(c.body ? { payload: c.body() as never } : {}),
  });
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().message).toContain(c.message);
  expect(await fingerprint(fuzz.database)).toBe(before);
});

test('multi-line text keeps its line breaks and tabs', async () => {
  const res = await fuzz.app.inject({
    method: 'POST',
    url: `/api/rotations/${ids.rotation}/page`,
    headers: { cookie: fuzz.cookies.admin, origin: APP_ORIGIN },
    payload: { message: 'Checkout is down\n\tsince 09:00\r\nCall Priya', urgency: 'low' },
  });
  expect(res.statusCode, res.body).toBe(201);
});
