import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { notifications, pages } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { decryptContent } from '../notifications/outbox';

/*
 * What the paging suites share. Each suite calls setUpPagingApp() once, at its top: its own app
 * and database, with the people below. Files in one worker share this module (decision 230), so
 * `t` and `people` are set afresh by each file's beforeAll and name that file's app.
 */

export const PUBLIC_URL = 'https://baton.example.test';
export const MINUTE = 60_000;

/** the suite's app, set by setUpPagingApp's beforeAll */
export let t: TestApp;

/** the suite's users, created by setUpPagingApp's beforeAll */
export const people = {} as Record<
  'manager' | 'olivia' | 'noah' | 'priya' | 'iris' | 'admin' | 'outsider' | 'otherManager',
  User
>;

/**
 * setUpPagingApp builds the suite's app and its people before the tests, deletes the pages before
 * each, and closes the app after.
 */
export function setUpPagingApp() {
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL } });
    Object.assign(
      people,
      await t.cast({
        manager: {},
        olivia: {
          email: 'olivia.ortiz@example.com',
          phone: '+1 555 010 0001',
          notificationPreference: 'both',
          timezone: 'America/Chicago',
        },
        noah: { email: 'noah@example.com' },
        priya: {},
        iris: {},
        admin: {},
        outsider: {},
        otherManager: {},
      }),
    );
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Each test starts with no pages, so the clock's steps are only this test's.
    await t.database.db.delete(pages);
  });
}

/** A fresh rotation: Olivia holds the baton, then Noah, then Priya; Morgan created it. */
export async function rotation(overrides: { suspended?: boolean; memberIds?: number[] } = {}) {
  const memberIds = overrides.memberIds ?? [people.olivia.id, people.noah.id, people.priya.id];
  return insertRotation(t.database.db, {
    name: `Platform ${Math.random().toString(36).slice(2, 7)}`,
    memberIds,
    holderId: memberIds[0],
    createdById: people.manager.id,
    suspended: overrides.suspended,
    now: t.clock.now(),
  });
}

export async function pageRotation(
  rotationId: number,
  body: { message: string; urgency?: string } = { message: 'Checkout is failing' },
  by: User = people.manager,
) {
  const res = await t.call(by, 'POST', `/api/rotations/${rotationId}/page`, body);
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await t.database.db
    .select()
    .from(pages)
    .where(eq(pages.rotationId, rotationId))
    .orderBy(desc(pages.id))
    .limit(1);
  return { res, row };
}

export const ackLinkIn = (text: string) => {
  const match = new RegExp(`${PUBLIC_URL}/pages/ack/([0-9]+\\.[A-Za-z0-9_-]{43})`).exec(text);
  if (!match) throw new Error(`no acknowledgement link in:\n${text}`);
  return match[1];
};

export async function outboxFor(pageId: number) {
  const rows = await t.database.db.select().from(notifications).orderBy(notifications.id);
  return rows
    .filter((r) => r.dedupeKey.startsWith(`page:${pageId}:`))
    .map((r) => ({ ...r, content: decryptContent(r, t.cipher) }));
}
