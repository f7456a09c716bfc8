import { readFile } from 'node:fs/promises';
import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import Papa from 'papaparse';
import { expect, type Login, openDashboard, test } from './fixtures';
import { accounts, appOrigin, E2E_PASSWORD, ownOrigin } from './support';

/*
 * The Audit Log, On-Call Team, Settings, Help and Debug Tools screens in Chromium, for each role
 * that sees them; tests that change data make their own (a rotation, an invited user).
 */

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** apiAs returns an API client signed in with the local password. */
async function apiAs(baseURL: string, email: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: ownOrigin(baseURL),
  });
  const res = await api.post('/api/auth/login', { data: { email, password: E2E_PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

async function userIdOf(api: APIRequestContext, email: string): Promise<number> {
  const team = (await (await api.get('/api/on-call-team')).json()) as {
    id: number;
    email: string;
  }[];
  const found = team.find((p) => p.email === email);
  expect(found, email).toBeTruthy();
  return found!.id;
}

/** createRotation makes a rotation with members, as an administrator, and returns its id. */
async function createRotation(api: APIRequestContext, name: string, memberIds: number[]) {
  const res = await api.post('/api/rotations', { data: { name, type: 'fixed' } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  for (const userId of memberIds) {
    const added = await api.post(`/api/rotations/${id}/on-call`, { data: { userId } });
    expect(added.ok(), await added.text()).toBe(true);
  }
  return id;
}

/** inviteAndSignIn registers a new user through an invitation and signs the page in as them. */
async function inviteAndSignIn(page: Page, baseURL: string, role: string, name: string) {
  const admin = await apiAs(baseURL, accounts.admin.email);
  const email = `settings.${unique()}@example.com`;
  const res = await admin.post('/api/invitations', { data: { email, name, role } });
  expect(res.status(), await res.text()).toBe(201);
  await admin.dispose();
  const signedIn = await page.request.post('/api/auth/login', {
    headers: ownOrigin(baseURL),
    data: { email, password: E2E_PASSWORD },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return email;
}

/** api matches requests to one API path, whatever their query string. */
const api = (path: string) => (url: URL) => url.pathname === path;
const clientCheck = api('/api/debug/client-check');

const handoffList = (page: Page) => page.getByRole('list', { name: 'Handoffs' });

test.describe('Audit Log', () => {
  test('shows each status with its text and badge, searches and filters on the server', async ({
    page,
    login,
  }) => {
    await login(accounts.onCall);
    await openDashboard(page);
    await page.getByRole('link', { name: 'Audit Log', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Audit Log', level: 1 })).toBeVisible();
    const list = handoffList(page);
    const status = page.getByRole('combobox', { name: 'Filter by status' });
    const search = page.getByRole('searchbox', { name: 'Search handoffs' });
    // Search by rotation name, ignoring case: the demo's suspended rotation has one handoff.
    await search.fill('legacy PAY');
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByText('Priya Patel missed handoff acknowledgment')).toBeVisible();
    await expect(list.getByText('Missed', { exact: true })).toBeVisible();
    // Each status has its text and badge, filtered on the server.
    await search.fill('');
    for (const [option, text] of [
      ['Escalated', /^Handoff to .+ was escalated$/],
      ['Acknowledged', /^.+ acknowledged new on-call duty$/],
      ['Success', /^Baton passed successfully from .+ to .+$/],
      ['Missed', /^.+ missed handoff acknowledgment$/],
    ] as const) {
      await status.click();
      await page.getByRole('option', { name: option, exact: true }).click();
      const items = list.getByRole('listitem');
      await expect(items.first().getByText(text)).toBeVisible();
      await expect
        .poll(async () => (await items.allTextContents()).every((t) => t.includes(option)))
        .toBe(true);
    }
    await status.click();
    await page.getByRole('option', { name: 'All statuses' }).click();
    // Administrators only: no export, no trail.
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Administrative Trail' })).toHaveCount(0);

    // Search by a person's name, ignoring case.
    await search.fill('sam SULLIVAN');
    await expect
      .poll(async () => {
        const texts = await list.getByRole('listitem').allTextContents();
        return texts.length > 0 && texts.every((t) => t.includes('Sam Sullivan'));
      })
      .toBe(true);
    await search.fill('nobody by this name');
    await expect(page.getByText('No handoffs match your search')).toBeVisible();
    await search.fill('Platform Primary');
    // An entry links to its rotation.
    await list.getByRole('link', { name: 'Platform Primary' }).first().click();
    await expect(page).toHaveURL(/\/rotations\/\d+$/);
  });

  test("shows 20 entries, and 'Load more' adds 20 while older ones remain", async ({
    page,
    baseURL,
    login,
  }) => {
    const admin = await apiAs(baseURL!, accounts.admin.email);
    const olivia = await userIdOf(admin, accounts.onCall.email);
    const noah = await userIdOf(admin, 'noah.nakamura@example.com');
    const name = `Audit Paging ${unique()}`;
    const id = await createRotation(admin, name, [olivia, noah]);
    for (let i = 0; i < 25; i++) {
      const res = await admin.post(`/api/rotations/${id}/assign-oncall`, {
        data: { toUserId: i % 2 === 0 ? olivia : noah, notes: `shift ${i}` },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }
    await admin.dispose();

    await login(accounts.manager);
    await page.goto('/audit-log');
    // The search applies once typing pauses: wait for the server's answer to it.
    const searched = page.waitForResponse(
      (res) => new URL(res.url()).searchParams.get('search') === name && res.ok(),
    );
    await page.getByRole('searchbox', { name: 'Search handoffs' }).fill(name);
    await searched;
    const items = handoffList(page).getByRole('listitem');
    await expect(items).toHaveCount(20);
    await expect(items.first()).toContainText('shift 24');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(items).toHaveCount(25);
    await expect(items.last()).toContainText('shift 0');
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  });

  test('administrators export the history as CSV and see the administrative trail', async ({
    page,
    baseURL,
    login,
  }) => {
    const admin = await apiAs(baseURL!, accounts.admin.email);
    const olivia = await userIdOf(admin, accounts.onCall.email);
    // A name a spreadsheet would run as a formula, were it not neutralised.
    const name = `=Export ${unique()}`;
    const id = await createRotation(admin, name, [olivia]);
    await admin.post(`/api/rotations/${id}/assign-oncall`, {
      data: { toUserId: olivia, notes: 'line one\nline two, "quoted"' },
    });
    await admin.dispose();

    await login(accounts.admin);
    await page.goto('/audit-log');
    await page.getByRole('searchbox', { name: 'Search handoffs' }).fill(name.slice(1));
    await expect(handoffList(page).getByRole('listitem')).toHaveCount(1);
    await expect(handoffList(page).getByRole('listitem')).toContainText(name);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^baton-handoffs-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await readFile((await download.path())!, 'utf8')).replace(/^\ufeff/, '');
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(1);
    expect(parsed.data[0]).toMatchObject({
      rotation: `'${name}`,
      to: accounts.onCall.name,
      status: 'success',
      kind: 'reassign',
      notes: 'line one\nline two, "quoted"',
    });

    await page.getByRole('tab', { name: 'Administrative Trail' }).click();
    const trail = page.getByRole('table');
    const created = trail.getByRole('row').filter({ hasText: name }).filter({
      hasText: 'Created a rotation',
    });
    await expect(created).toHaveCount(1);
    await expect(created).toContainText(accounts.admin.name);
    await expect(
      trail.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Added a member' }),
    ).toHaveCount(1);
  });

  test("a failed read shows 'Failed to fetch handoffs'", async ({ page, login }) => {
    await login(accounts.incidentManager);
    await openDashboard(page);
    await page.route(api('/api/audit-log/handoffs'), (route) =>
      route.fulfill({ status: 500, json: { message: 'boom', code: 'INTERNAL' } }),
    );
    await page.goto('/audit-log');
    await expect(page.getByText('Failed to fetch handoffs')).toBeVisible();
  });
});

test.describe('Rotation reads that fail', () => {
  test("the dashboard says 'Failed to fetch enhanced rotations' and 'Failed to fetch rotations'", async ({
    page,
    login,
  }) => {
    await login(accounts.onCall);
    await openDashboard(page);
    await page.route(api('/api/user/rotations'), (route) =>
      route.fulfill({ status: 500, json: { message: 'boom', code: 'INTERNAL' } }),
    );
    await page.route(api('/api/rotations'), (route) =>
      route.fulfill({ status: 500, json: { message: 'boom', code: 'INTERNAL' } }),
    );
    await page.goto('/');
    await expect(page.getByText('Failed to fetch enhanced rotations')).toBeVisible();
    await expect(page.getByText('Failed to fetch rotations', { exact: true })).toBeVisible();
  });

  test("the rotations list says 'Failed to fetch rotations: {status} {statusText}'", async ({
    page,
    login,
  }) => {
    await login(accounts.onCall);
    await openDashboard(page);
    await page.route(api('/api/rotations'), (route) =>
      route.fulfill({ status: 503, json: { message: 'down', code: 'UNAVAILABLE' } }),
    );
    await page.goto('/rotations');
    await expect(
      page.getByText('Failed to fetch rotations: 503 Service Unavailable'),
    ).toBeVisible();
  });
});

test.describe('On-Call Team', () => {
  test('a searchable table with rotation status, preference and time zone; View User for others', async ({
    page,
    login,
  }) => {
    await login(accounts.onCall);
    await openDashboard(page);
    await page.getByRole('link', { name: 'On-Call Team', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'On-Call Team', level: 1 })).toBeVisible();
    const table = page.getByRole('table');
    for (const column of [
      'Name',
      'Email',
      'Rotation Status',
      'Notification Preference',
      'Timezone',
      'Actions',
    ]) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    const row = (name: string) => table.getByRole('row').filter({ hasText: name });
    await expect(row('Iris Incident')).toContainText('Not Assigned');
    await expect(row('Iris Incident')).toContainText('Email only');
    await expect(row('Noah Nakamura')).toContainText(/Active \(\d+\)/);
    await expect(row('Noah Nakamura')).toContainText('Asia/Tokyo');
    // Issue 15: 'View User' no longer bounces a member off /admin/users; it opens the person's
    // read-only view (decision 187).
    await expect(row('Iris Incident').getByRole('link', { name: /^View User/ })).toHaveAttribute(
      'href',
      /^\/people\/\d+$/,
    );
    await expect(table.getByRole('link', { name: /^Manage User/ })).toHaveCount(0);

    const search = page.getByRole('searchbox', { name: 'Search team members' });
    await search.fill('OLIVIA');
    await expect(table.getByRole('row')).toHaveCount(2); // header + Olivia
    await expect(row('Olivia Ortiz')).toBeVisible();
    await search.fill('IRIS.INCIDENT@');
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(row('Iris Incident')).toBeVisible();
    await search.fill('zz-nobody');
    await expect(page.getByText('No team members match your search')).toBeVisible();
  });

  test("administrators see 'Manage User', leading to User Management", async ({ page, login }) => {
    await login(accounts.admin);
    await page.goto('/on-call-team');
    const manage = page
      .getByRole('row')
      .filter({ hasText: 'Morgan Manager' })
      .getByRole('link', { name: /^Manage User/ });
    await manage.click();
    await expect(page).toHaveURL(/\/admin\/users$/);
  });

  test("a failed read shows 'Failed to fetch on-call team'", async ({ page, login }) => {
    await login(accounts.manager);
    await openDashboard(page);
    await page.route(api('/api/on-call-team'), (route) =>
      route.fulfill({ status: 500, json: { message: 'boom' } }),
    );
    await page.goto('/on-call-team');
    await expect(page.getByText('Failed to fetch on-call team')).toBeVisible();
  });
});

test.describe('Settings', () => {
  test('saves the time zone and handoff reminder, and the notification preference', async ({
    page,
    baseURL,
  }) => {
    await inviteAndSignIn(page, baseURL!, 'member', 'Sasha Settings');
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    for (const tab of ['General', 'Notifications', 'Integrations']) {
      await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    }
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    const reminder = page.getByRole('combobox', { name: 'Handoff reminder' });
    await expect(reminder).toHaveText('30 minutes before');
    await zone.click();
    for (const city of ['New York', 'Los Angeles', 'Chicago', 'London', 'Tokyo']) {
      await expect(page.getByRole('option', { name: city, exact: true })).toBeVisible();
    }
    await page.getByRole('option', { name: 'Tokyo', exact: true }).click();
    await reminder.click();
    for (const choice of ['15 minutes', '30 minutes', '1 hour', '2 hours', '1 day']) {
      await expect(page.getByRole('option', { name: `${choice} before` })).toBeVisible();
    }
    await page.getByRole('option', { name: '2 hours before' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Settings saved', { exact: true }).first()).toBeVisible();

    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveText('Tokyo');
    await expect(page.getByRole('combobox', { name: 'Handoff reminder' })).toHaveText(
      '2 hours before',
    );
    // The profile edits the same time zone.
    const me = await (await page.request.get('/api/auth/user')).json();
    expect(me.user.timezone).toBe('Asia/Tokyo');

    // Notifications: the preference is saved; the per-type choices are shown, default Both,
    // and, not saved (specification section 9), disabled and 'Not available yet' (decision 188).
    await page.getByRole('tab', { name: 'Notifications' }).click();
    const preference = page.getByRole('combobox', { name: 'Notification preference' });
    await expect(preference).toHaveText('Email only');
    await expect(page.getByRole('combobox', { name: 'Page alerts' })).toHaveText('Both');
    await expect(page.getByRole('combobox', { name: 'Page alerts' })).toBeDisabled();
    await expect(page.getByRole('combobox', { name: 'Page alerts' })).toHaveAccessibleDescription(
      /Not available yet/,
    );
    await expect(page.getByText('These per-type choices are not saved yet')).toBeVisible();
    await preference.click();
    await page.getByRole('option', { name: 'Both Email and SMS' }).click();
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(page.getByText('Settings saved', { exact: true }).first()).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await expect(page.getByRole('combobox', { name: 'Notification preference' })).toHaveText(
      'Both Email and SMS',
    );
    // Not saved: back to the default.
    await expect(page.getByRole('combobox', { name: 'Page alerts' })).toHaveText('Both');

    // Integrations: all four not connected, with inert Connect buttons.
    await page.getByRole('tab', { name: 'Integrations' }).click();
    for (const name of ['Google calendar', 'Outlook', 'PagerDuty', 'Jira Service Desk']) {
      const item = page.getByRole('listitem').filter({ hasText: name });
      await expect(item).toContainText('Not connected');
      await expect(item.getByRole('button', { name: /^Connect/ })).toBeDisabled();
      await expect(item.getByRole('button', { name: /^Connect/ })).toHaveAccessibleDescription(
        'Not available yet',
      );
      // The calendar apps point to what already works: the Calendar page's iCalendar feed.
      const calendarLink = item.getByRole('link', { name: 'Calendar page' });
      if (name === 'Google calendar' || name === 'Outlook') {
        await expect(item).toContainText(
          'You can already subscribe to Baton’s iCalendar feed from the Calendar page.',
        );
        await expect(calendarLink).toHaveAttribute('href', '/calendar');
      } else {
        await expect(calendarLink).toHaveCount(0);
      }
      // PagerDuty's Events API format already comes in through a rotation's integrations.
      const guide = item.getByRole('link', { name: 'Moving from PagerDuty' });
      if (name === 'PagerDuty') {
        await expect(item).toContainText(
          'Monitoring that sends to PagerDuty’s Events API can already raise incidents in Baton through an integration key on a rotation’s page. See Moving from PagerDuty.',
        );
        await expect(guide).toHaveAttribute('href', '/help/moving-from-pagerduty');
      } else {
        await expect(guide).toHaveCount(0);
      }
    }
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Outlook' })
      .getByRole('link', { name: 'Calendar page' })
      .click();
    await expect(page).toHaveURL(/\/calendar$/);
    await expect(page.getByRole('heading', { name: 'Calendar feeds' })).toBeVisible();
  });

  test('shows the error toasts of section 8', async ({ page, baseURL }) => {
    await inviteAndSignIn(page, baseURL!, 'manager', 'Erin Errors');
    await page.goto('/settings');
    await page.route(api('/api/user/settings'), (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 500, json: { message: 'Something went wrong on our side.' } })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Error saving settings', { exact: true }).first()).toBeVisible();
    await expect(
      page
        .getByText('There was a problem saving your settings. Please try again.', { exact: true })
        .first(),
    ).toBeVisible();

    // The session ends elsewhere: saving says you must be logged in.
    await page.unrouteAll();
    await page.request.post('/api/auth/logout', { headers: appOrigin() });
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Error', { exact: true }).first()).toBeVisible();
    await expect(
      page.getByText('You must be logged in to save settings.', { exact: true }).first(),
    ).toBeVisible();
  });
});

test.describe('Help', () => {
  test('the Help Center is readable signed out, its search filters the articles, and no link is a dead end', async ({
    page,
    login,
  }) => {
    // A page load per article (some 25 now): over 30 s while the other shards load the machine.
    test.setTimeout(120_000);
    await page.goto('/help');
    await expect(page.getByRole('heading', { name: 'Help Center', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    const featured = page.getByRole('region', { name: 'Featured articles' });
    await expect(featured.getByRole('listitem')).toHaveCount(3);
    const categories = page.getByRole('region', { name: 'Browse by category' });
    await expect(categories.getByRole('heading', { level: 3 })).toHaveCount(5);
    const more = page.getByRole('region', { name: 'More help' });
    for (const link of await more.getByRole('link').all()) {
      await expect(link).toHaveAttribute('target', '_blank');
    }

    const search = page.getByRole('searchbox', { name: 'Search help articles' });
    await search.fill('csv');
    // The audit log's export, and the import of a spreadsheet (issue 34).
    await expect(page.getByRole('heading', { name: '2 articles found' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Audit Logs/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Importing from Another Tool/ })).toBeVisible();
    await expect(featured).toHaveCount(0);
    await search.fill('no such topic at all');
    await expect(page.getByRole('heading', { name: 'No articles found' })).toBeVisible();
    await search.fill('');

    // Every article link of the Help Center leads to a real page.
    const hrefs = new Set<string>();
    for (const link of await categories.getByRole('link').all()) {
      hrefs.add((await link.getAttribute('href'))!);
    }
    expect(hrefs.size).toBeGreaterThanOrEqual(19);
    const publicHrefs = [...hrefs].filter(
      (href) => href.startsWith('/help') || href === '/support',
    );
    expect(publicHrefs).toContain('/support');
    for (const href of publicHrefs) {
      await page.goto(href);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
      await expect(page).toHaveURL(new RegExp(`${href}$`));
    }

    // /notification-help needs a signed-in user, as the route table says.
    await page.goto('/notification-help');
    await expect(page).toHaveURL(/\/login$/);
    await login(accounts.incidentManager);
    for (const href of ['/notification-help']) {
      await page.goto(href);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
    }
    await expect(
      page.getByRole('heading', { name: 'Notification Settings', level: 1 }),
    ).toBeVisible();
  });

  test('the guides have the tabs of section 2 and describe Baton as it behaves', async ({
    page,
    login,
  }) => {
    const tabsOf: [string, string, string[]][] = [
      ['/help/handoff-process', 'Handoff Process Guide', ['Standard', 'Emergency']],
      [
        '/help/paging-oncall',
        'Paging On-Call Personnel',
        ['Incident Response', 'From Rotation View'],
      ],
      [
        '/help/security-disclosures',
        'Security Disclosures',
        ['Overview', 'Authentication', 'Data Security', 'Considerations'],
      ],
    ];
    for (const [path, title, tabs] of tabsOf) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      for (const tab of tabs) {
        await page.getByRole('tab', { name: tab }).click();
        await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      }
    }
    await page.goto('/help/handoff-process');
    await expect(page.getByText('30 minutes before the shift ends')).toBeVisible();
    await expect(page.getByText('60 minutes late')).toBeVisible();
    await page.goto('/help/encryption');
    await expect(page.getByText('AES-256-GCM').first()).toBeVisible();
    await page.goto('/help/user-roles');
    const matrix = page.getByRole('table', { name: 'What each role may do' });
    const deleteRow = matrix.getByRole('row').filter({ hasText: 'Delete a rotation' });
    await expect(deleteRow.getByRole('img', { name: 'Yes' })).toHaveCount(1);
    await expect(deleteRow.getByRole('img', { name: 'No' })).toHaveCount(3);

    await login(accounts.onCall);
    await openDashboard(page);
    await page.getByRole('link', { name: 'Notification Help', exact: true }).click();
    for (const tab of ['iOS', 'Android', 'FAQ']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    }
    await expect(page.getByText('Does Baton have push notifications?')).toBeVisible();
    await expect(page.getByText(/planned for a future update/).first()).toBeVisible();
  });
});

test.describe('Debug Tools', () => {
  async function openDebug(login: Login, page: Page) {
    await login(accounts.admin);
    await openDashboard(page);
    await page.getByRole('link', { name: 'Debug Tools', exact: true }).click();
    await expect(page.getByText('Administrator Access Only')).toBeVisible();
    await expect(page.getByText(/performance impact/)).toBeVisible();
  }

  test('rotation tools open the JSON views in a new tab and compare the two reads', async ({
    context,
    page,
    login,
  }) => {
    await openDebug(login, page);
    for (const tab of ['Rotation Tools', 'Environment Check', 'Client Check']) {
      await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    }
    for (const [name, href] of [
      ['Direct Rotations Query', '/api/debug/rotations'],
      ['Database Diagnostics', '/api/debug/database'],
      ['Production Filtering Check', '/api/debug/production-filtering'],
    ]) {
      const link = page.getByRole('link', { name: new RegExp(`^${name}`) });
      await expect(link).toHaveAttribute('href', href);
      await expect(link).toHaveAttribute('target', '_blank');
    }
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: /^Database Diagnostics/ }).click(),
    ]);
    await tab.waitForLoadState();
    const body = JSON.parse((await tab.locator('body').textContent()) || '{}');
    expect(body.tables.map((t: { name: string }) => t.name)).toContain('rotations');
    expect(JSON.stringify(body)).not.toContain(E2E_PASSWORD);
    await tab.close();

    await page.getByRole('button', { name: 'Run Diagnostics' }).click();
    await expect(page.getByText('Match', { exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: /^Differences/ })).toContainText('0');
    await page.getByRole('tab', { name: 'Environment', exact: true }).click();
    await expect(page.getByText('Encryption key available')).toBeVisible();
    await page.getByRole('tab', { name: 'Samples' }).click();
    await expect(page.getByRole('region', { name: 'Direct query sample' })).toContainText(
      'Platform Primary',
    );

    await page.getByRole('tab', { name: 'Environment Check' }).click();
    await page.getByRole('button', { name: 'Run Environment Check' }).click();
    await expect(page.getByText('Total rotations')).toBeVisible();
    await page.getByRole('tab', { name: 'Rotations', exact: true }).click();
    await expect(
      page.getByRole('row').filter({ hasText: 'Legacy Payments' }).getByText('Suspended'),
    ).toBeVisible();
    await page.getByRole('tab', { name: 'Filtering Issues' }).click();
    await expect(page.getByText('Suspended rotations filtered out')).toBeVisible();
  });

  test('the diagnostics show the error texts of section 8', async ({ page, login }) => {
    await openDebug(login, page);
    await page.route(api('/api/debug/rotations-compare'), (route) =>
      route.fulfill({ status: 503, json: { message: 'database unavailable' } }),
    );
    await page.getByRole('button', { name: 'Run Diagnostics' }).click();
    await expect(
      page.getByText('Failed to fetch diagnostics: 503 database unavailable'),
    ).toBeVisible();

    const directRotations = api('/api/debug/rotations');
    await page.route(directRotations, (route) => route.fulfill({ status: 502, body: '' }));
    await page.getByRole('tab', { name: 'Environment Check' }).click();
    await page.getByRole('button', { name: 'Run Environment Check' }).click();
    await expect(page.getByText('Direct rotations API error: 502')).toBeVisible();
    await page.unroute(directRotations);
    await page.route(api('/api/debug/production-filtering'), (route) =>
      route.fulfill({ status: 500, json: { message: 'x' } }),
    );
    await page.getByRole('button', { name: 'Run Environment Check' }).click();
    await expect(page.getByText('API error: 500')).toBeVisible();
  });

  test('the client check: its sub-tabs, its environment badge and its failure states', async ({
    page,
    login,
  }) => {
    await openDebug(login, page);
    await page.getByRole('tab', { name: 'Client Check' }).click();
    await expect(page.getByText('Client Data Handling Check')).toBeVisible();
    await page.getByRole('button', { name: 'Run Client Check' }).click();
    await expect(page.getByText('Development', { exact: true })).toBeVisible();
    await expect(page.getByText('Success', { exact: true })).toBeVisible();
    await expect(page.getByText('Rotation count')).toBeVisible();
    await page.getByRole('tab', { name: 'Rotations Data' }).click();
    await expect(page.getByText('Sample rotation')).toBeVisible();
    await page.getByRole('tab', { name: 'Type Handling' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Boolean(falseAsString)' })).toContainText(
      'true',
    );

    // The JSON string does not parse: the result is cleared and the failure shown.
    await page.route(clientCheck, async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      json.rotations.stringified = '[{"id": 1,';
      await route.fulfill({ response, json });
    });
    await page.getByRole('button', { name: 'Run Client Check' }).click();
    await page.getByRole('tab', { name: 'Summary' }).click();
    await expect(page.getByText('Failed', { exact: true })).toBeVisible();
    await expect(page.getByText('Failed to parse stringified JSON')).toBeVisible();

    // The server fails: the red 'Error' panel.
    await page.unroute(clientCheck);
    await page.route(clientCheck, (route) =>
      route.fulfill({ status: 500, json: { message: 'Something went wrong on our side.' } }),
    );
    await page.getByRole('button', { name: 'Run Client Check' }).click();
    const panel = page.getByRole('alert').filter({ hasText: 'Error' });
    await expect(panel).toContainText('API error: 500 Something went wrong on our side.');
  });
});
