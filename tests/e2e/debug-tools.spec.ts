import { type Page, request } from '@playwright/test';
import { expect, type Login, openDashboard, test } from './fixtures';
import { accounts, E2E_PASSWORD } from './support';

/*
 * Debug Tools beyond the specification's three tabs: the Audit Integrity check (decision 172),
 * and what the diagnostics say when the server withholds its hostname, data path and database
 * version (production without DEBUG_DETAILS, decision 173).
 */

/** api matches requests to one API path, whatever their query string. */
const api = (path: string) => (url: URL) => url.pathname === path;

async function openDebug(login: Login, page: Page) {
  await login(accounts.admin);
  await openDashboard(page);
  await page.getByRole('link', { name: 'Debug Tools', exact: true }).click();
  await expect(page.getByText('Administrator Access Only')).toBeVisible();
}

test('Audit Integrity verifies the real chain, then names the first broken link', async ({
  baseURL,
  login,
  page,
}) => {
  // An audited change, made as an administrator does: the chain has at least one more event.
  const admin = await request.newContext({
    baseURL,
    extraHTTPHeaders: { origin: baseURL! },
  });
  const signedIn = await admin.post('/api/auth/login', {
    data: { email: accounts.admin.email, password: E2E_PASSWORD },
  });
  expect(signedIn.status()).toBe(200);
  const created = await admin.post('/api/rotations', {
    data: { name: `Audited ${Date.now().toString(36)}`, type: 'fixed' },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();

  await openDebug(login, page);
  await page.getByRole('tab', { name: 'Audit Integrity' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Integrity' })).toBeVisible();
  const answer = page.waitForResponse((r) => r.url().includes('/api/debug/audit-integrity'));
  await page.getByRole('button', { name: 'Verify Audit Trail' }).click();
  const real = (await (await answer).json()) as { eventsChecked: number; head: { seq: number } };
  expect(real.eventsChecked).toBeGreaterThanOrEqual(1);
  expect(real.eventsChecked).toBe(real.head.seq);
  await expect(
    page.getByRole('status').filter({ hasText: /^Every event from the first/ }),
  ).toHaveText(
    'Every event from the first to the chain head verified: nothing was changed or deleted.',
  );
  await expect(page.getByText('Intact', { exact: true }).first()).toBeVisible();
  const facts = page.locator('dl');
  await expect(facts).toContainText(`Events verified${real.eventsChecked}`);
  await expect(facts).toContainText(`Chain headposition ${real.head.seq}`);

  // A tampered trail, as the server reports it (tampering needs the database's superuser, which
  // the API test does: src/server/modules/debug/debug-routes.test.ts).
  await page.route(api('/api/debug/audit-integrity'), (route) =>
    route.fulfill({
      json: {
        status: 'broken',
        eventsChecked: 3,
        head: { seq: 9, hash: 'a'.repeat(64) },
        firstBroken: {
          kind: 'altered',
          chainSeq: 4,
          eventId: 17,
          message:
            'Event 17 (position 4) was changed after it was written: its fields no longer give its hash.',
        },
        durationMs: 2.5,
        checkedAt: '2026-11-25T10:00:00.000Z',
      },
    }),
  );
  await page.getByRole('button', { name: 'Verify Audit Trail' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'First broken link' });
  await expect(alert).toContainText('First broken link: Event changed');
  await expect(alert).toContainText('Event 17 (position 4) was changed after it was written');
  await expect(facts).toContainText('Broken at position4');
  await expect(facts).toContainText('Event17');
  await expect(page.getByText('Broken', { exact: true }).first()).toBeVisible();

  // The server fails: the red 'Error' panel.
  await page.unroute(api('/api/debug/audit-integrity'));
  await page.route(api('/api/debug/audit-integrity'), (route) =>
    route.fulfill({ status: 503, json: { message: 'The database is unavailable.' } }),
  );
  await page.getByRole('button', { name: 'Verify Audit Trail' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Error' })).toContainText(
    'Audit integrity check failed: 503 The database is unavailable.',
  );
});

test('withheld details: the checks still run and say what the server withheld', async ({
  login,
  page,
}) => {
  await openDebug(login, page);
  // The server's own answers, changed as a production server without DEBUG_DETAILS answers.
  const withhold =
    (edit: (json: { environment: Record<string, unknown>; withheld: string[] }) => void) =>
    async (route: import('@playwright/test').Route) => {
      const response = await route.fetch();
      const json = await response.json();
      edit(json);
      await route.fulfill({ response, json });
    };
  await page.route(
    api('/api/debug/rotations-compare'),
    withhold((json) => {
      json.environment.hostname = 'withheld';
      json.environment.dbHost = 'withheld';
      json.withheld = ['hostname', 'dbHost'];
    }),
  );
  await page.route(
    api('/api/debug/production-filtering'),
    withhold((json) => {
      json.environment.dbHost = 'withheld';
      json.withheld = ['dbHost'];
    }),
  );
  await page.route(
    api('/api/debug/client-check'),
    withhold((json) => {
      json.environment.hostname = 'withheld';
      json.withheld = ['hostname'];
    }),
  );
  const note = 'Withheld in production (the server shows it with DEBUG_DETAILS=1)';

  await page.getByRole('button', { name: 'Run Diagnostics' }).click();
  await expect(page.getByText('Match', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Environment', exact: true }).click();
  await expect(page.getByText(note)).toHaveCount(2);
  await expect(page.getByText('Encryption key available')).toBeVisible();

  await page.getByRole('tab', { name: 'Environment Check' }).click();
  await page.getByRole('button', { name: 'Run Environment Check' }).click();
  await expect(page.getByText('Total rotations')).toBeVisible();
  await page.getByRole('tab', { name: 'Environment', exact: true }).click();
  await expect(page.getByText(note)).toBeVisible();

  await page.getByRole('tab', { name: 'Client Check' }).click();
  await page.getByRole('button', { name: 'Run Client Check' }).click();
  await expect(page.getByText('Rotation count')).toBeVisible();
  await expect(page.getByText(note)).toBeVisible();
  await expect(page.getByText('withheld', { exact: true })).toHaveCount(0);
});

test('shown details: outside production the diagnostics name the host and the database', async ({
  login,
  page,
}) => {
  await openDebug(login, page);
  const answer = page.waitForResponse((r) => r.url().includes('/api/debug/rotations-compare'));
  await page.getByRole('button', { name: 'Run Diagnostics' }).click();
  const body = (await (await answer).json()) as {
    environment: { hostname: string; dbHost: string };
    withheld: string[];
  };
  expect(body.withheld).toEqual([]);
  await page.getByRole('tab', { name: 'Environment', exact: true }).click();
  await expect(page.getByText(body.environment.dbHost, { exact: true })).toBeVisible();
  await expect(page.getByText(body.environment.hostname, { exact: true })).toBeVisible();
  await expect(page.getByText(/^Withheld in production/)).toHaveCount(0);
});
