import { type APIRequest, expect, type Page, test } from '@playwright/test';
import { TIMEZONES } from '../../src/shared/contracts/users';
import { apiAs } from './rotation-support';
import { accounts, appOrigin, E2E_PASSWORD } from './support';

// The browser runs in UTC; the people below live elsewhere. Every time must follow the person.
test.use({ timezoneId: 'UTC', locale: 'en-US' });

/*
 * One clock (issue 15, decision 180): every time Baton shows is in the signed-in user's profile
 * zone, whatever zone the browser runs in, and the pages that show times name that zone once.
 */

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** signInAs signs the page's browser in through the API as a new person; their user. */
async function signInAs(page: Page, email: string) {
  const res = await page.request.post('/api/auth/login', {
    headers: appOrigin(),
    data: { email, password: E2E_PASSWORD },
  });
  expect(res.ok(), `sign-in as ${email}`).toBe(true);
  return ((await res.json()) as { user: { id: number } }).user;
}

/** newPerson invites a new on-call person and signs the page in as them; returns their id. */
async function newPerson(page: Page, request: APIRequest, baseURL: string, name: string) {
  const admin = await apiAs(request, baseURL, accounts.admin);
  const email = `one.clock.${unique()}@example.com`;
  const res = await admin.post('/api/invitations', { data: { email, name, role: 'member' } });
  expect(res.status(), await res.text()).toBe(201);
  await admin.dispose();
  const user = await signInAs(page, email);
  return { id: user.id, email };
}

/** inZone writes an instant as the screens should: date, time, and the time alone. */
function inZone(at: Date, timeZone: string) {
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(at);
  const date = part({ dateStyle: 'long' });
  const time = part({ hour: 'numeric', minute: '2-digit' });
  // ICU versions differ in the joiner (' at ' or ', ') and the space before AM/PM.
  const spaced = time.replace(/\s/, '\\s');
  return {
    date,
    // Not part of a longer time: 1:37 PM must not match 11:37 PM.
    time: new RegExp(`(?<![\\d:])${spaced}`),
    dateTime: new RegExp(`${date}(,| at) ${spaced}`),
    dayLabel: part({ weekday: 'long', month: 'long', day: 'numeric' }),
  };
}

test('a handoff reads the same Berlin time on the dashboard, rotation page, calendar and audit log in a UTC browser', async ({
  page,
  playwright,
  baseURL,
}) => {
  const berta = await newPerson(page, playwright.request, baseURL!, 'Berta Berlin');
  const zoneSet = await page.request.patch(`/api/users/${berta.id}`, {
    headers: appOrigin(),
    data: { timezone: 'Europe/Berlin' },
  });
  expect(zoneSet.ok(), await zoneSet.text()).toBe(true);

  // A rotation Berta is in; she takes the baton now: one handoff, at one instant.
  const admin = await apiAs(playwright.request, baseURL!, accounts.admin);
  const name = `One Clock ${unique()}`;
  const created = await admin.post('/api/rotations', { data: { name, type: 'fixed' } });
  expect(created.status(), await created.text()).toBe(201);
  const { id: rotationId } = (await created.json()) as { id: number };
  const added = await admin.post(`/api/rotations/${rotationId}/on-call`, {
    data: { userId: berta.id, order: 0 },
  });
  expect(added.ok(), await added.text()).toBe(true);
  await admin.dispose();
  const took = await page.request.post(`/api/rotations/${rotationId}/take-oncall`, {
    headers: appOrigin(),
  });
  expect(took.ok(), await took.text()).toBe(true);
  const rotation = (await (await page.request.get(`/api/rotations/${rotationId}`)).json()) as {
    holderSince: string;
  };
  const at = new Date(rotation.holderSince);
  const berlin = inZone(at, 'Europe/Berlin');
  const utc = inZone(at, 'UTC');
  // Berlin is one or two hours ahead of UTC, so the two readings never agree.
  expect(berlin.dateTime.source).not.toBe(utc.dateTime.source);

  // Dashboard: the zone under the title; the rotation card and Recent Handoffs in Berlin time.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('Times in Europe/Berlin', { exact: true })).toHaveCount(1);
  const card = page
    .getByRole('region', { name: 'Your Rotations' })
    .locator('[data-slot=card]')
    .filter({ hasText: name });
  await expect(card.getByText(berlin.dateTime)).toBeVisible();
  await expect(card.getByText(utc.dateTime)).toHaveCount(0);
  const recent = page
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('heading', { name: 'Recent Handoffs' }) });
  const recentEntry = recent.getByRole('listitem').filter({ hasText: name }).first();
  await expect(recentEntry).toContainText(berlin.dateTime);

  // Rotation page.
  await page.goto(`/rotations/${rotationId}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('Times in Europe/Berlin', { exact: true })).toHaveCount(1);
  await expect(page.getByText(new RegExp(`^Since ${berlin.dateTime.source}`))).toBeVisible();
  await expect(page.getByText(utc.dateTime)).toHaveCount(0);

  // Calendar: today is Berlin's today, and Berta's shift starts at the Berlin time.
  await page.goto(`/calendar?rotation=${rotationId}`);
  await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
  await expect(page.getByText('Times in Europe/Berlin', { exact: true })).toHaveCount(1);
  const today = page.locator('button[aria-current="date"]');
  await expect(today).toHaveAccessibleName(new RegExp(`^${berlin.dayLabel} \\(today\\)`));
  await expect(today).toContainText(berlin.time);
  const details = page
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('heading', { level: 2, name: berlin.dayLabel }) });
  await expect(
    details.getByRole('listitem').filter({ hasText: 'Berta Berlin' }).last(),
  ).toContainText(berlin.time);

  // Audit log: the same handoff, the same time.
  await page.goto('/audit-log');
  await expect(page.getByRole('heading', { name: 'Audit Log', level: 1 })).toBeVisible();
  await expect(page.getByText('Times in Europe/Berlin', { exact: true })).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search handoffs' }).fill(name);
  const entry = page.getByRole('list', { name: 'Handoffs' }).getByRole('listitem');
  await expect(entry).toHaveCount(1);
  await expect(entry.locator('time')).toHaveText(berlin.dateTime);
});

test('the profile offers every IANA zone, the specification nine first, and saves one of the others', async ({
  page,
  playwright,
  baseURL,
}) => {
  await newPerson(page, playwright.request, baseURL!, 'Kamal Kathmandu');
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Your Profile' })).toBeVisible();
  const picker = page.getByRole('combobox', { name: 'Timezone' });
  await expect(picker).toHaveText('UTC');
  await picker.click();
  const options = page.getByRole('listbox', { name: 'Time zones' }).getByRole('option');
  const first = await options.evaluateAll((all) =>
    all.slice(0, 9).map((o) => o.querySelector('span')?.textContent),
  );
  expect(first).toEqual([...TIMEZONES]);
  expect(await options.count()).toBeGreaterThan(300);

  await page.getByRole('combobox', { name: 'Search time zones' }).fill('kathmandu');
  await expect(options).toHaveCount(1);
  await options.first().click();
  await expect(picker).toHaveText('Asia/Kathmandu');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated', { exact: true }).first()).toBeVisible();

  const me = (await (await page.request.get('/api/auth/user')).json()) as {
    user: { timezone: string };
  };
  expect(me.user.timezone).toBe('Asia/Kathmandu');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Timezone' })).toHaveText('Asia/Kathmandu');
  await page.goto('/');
  await expect(page.getByText('Times in Asia/Kathmandu', { exact: true })).toBeVisible();
});

test('a saved zone this browser cannot format reads as UTC with a note, never a crash', async ({
  page,
  playwright,
  baseURL,
}) => {
  await newPerson(page, playwright.request, baseURL!, 'Zed Unknown');
  // A zone a newer server's time zone data knows and this browser does not (answered here).
  await page.route(
    (url) => url.pathname === '/api/auth/user',
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { user: Record<string, unknown> };
      await route.fulfill({
        response,
        json: { ...body, user: { ...body.user, timezone: 'Mars/Olympus_Mons' } },
      });
    },
  );
  // The page carries its signed-in user too (decision 264): its copy says the same zone.
  await page.route(
    (url) => url.pathname === '/' || url.pathname === '/calendar',
    async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      expect(html).toContain('"timezone":');
      const body = html.replace(/("timezone":)"[^"]*"/, '$1"Mars/Olympus_Mons"');
      await route.fulfill({ response, body });
    },
  );
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(
    page.getByText('Times in UTC: this browser cannot show your time zone (Mars/Olympus_Mons)'),
  ).toBeVisible();
  await page.goto('/calendar');
  await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
  await expect(page.locator('button[aria-current="date"]')).toHaveCount(1);
});
