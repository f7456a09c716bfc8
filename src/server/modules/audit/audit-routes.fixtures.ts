import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import type { OpenOptions } from '../../db/client';

/*
 * The audit suites' shared set-up: one app, an administrator and an on-call person with their
 * session cookies. Each suite calls `setUpAuditSuite()` once; its hooks set the bindings below
 * (an import sees them as they are now), since the files of a worker share this module
 * (decision 230).
 */

export let t: TestApp;
export let admin: User;
export let onCall: User;
export let adminCookie: string;
export let onCallCookie: string;

/** setUpAuditSuite registers the suite's hooks: the app, telling `onQuery` each query it runs. */
export function setUpAuditSuite(onQuery?: OpenOptions['onQuery']) {
  beforeAll(async () => {
    t = await createTestApp({ db: { onQuery } });
    admin = await t.createUser({ name: 'Avery Auditor', roles: ['admin'] });
    onCall = await t.createUser({ name: 'Olga Oncall', roles: ['on-call'] });
    adminCookie = await t.cookieFor(admin);
    onCallCookie = await t.cookieFor(onCall);
  });
  afterAll(() => t.close());
}
