import { expect, test } from '@playwright/test';
import { apiAs, createRotation, uniqueName } from './rotation-support';
import { accounts, appOrigin, E2E_PASSWORD } from './support';

/*
 * Time off (issue 18): a person records it on their profile, and the calendar shows it. A new
 * person (invited for this test, profile zone UTC) in a new rotation, so no other test's
 * rotations change.
 */

const pad = (n: number) => String(n).padStart(2, '0');
/** local returns a datetime-local value of an instant in UTC (the new person's zone). */
const local = (d: Date) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
const dayLabel = (d: Date) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(d);

test('time off added on the profile shows on the calendar', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('Tara Timeoff');
  const email = `time.off.${Date.now().toString(36)}@example.com`;
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const invited = await admin.post('/api/invitations', { data: { email, name, role: 'member' } });
  expect(invited.status(), await invited.text()).toBe(201);
  await admin.dispose();
  const res = await page.request.post('/api/auth/login', {
    headers: appOrigin(),
    data: { email, password: E2E_PASSWORD },
  });
  expect(res.ok(), `sign-in as ${email}`).toBe(true);
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  await createRotation(manager, uniqueName('Time off team'), [{ email, name }, accounts.sam]);
  await manager.dispose();

  // Away from tomorrow 00:00 UTC for three days.
  const today = new Date();
  const start = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1),
  );
  const end = new Date(start.getTime() + 3 * 86_400_000);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Time off' })).toBeVisible();
  await expect(page.getByText('No time off planned.')).toBeVisible();
  await page.getByRole('button', { name: 'Add time off' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add time off' });
  await dialog.getByLabel('Start time').fill(local(start));
  await dialog.getByLabel('End time').fill(local(end));
  await dialog.getByLabel('Note (optional)').fill('Conference in Lisbon');
  await dialog.getByRole('button', { name: 'Add time off' }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole('list', { name: 'Time off' });
  await expect(list).toContainText('Conference in Lisbon');
  await expect(list.getByRole('listitem')).toHaveCount(1);

  // The calendar shows it on the day after tomorrow, inside the time off.
  const away = new Date(start.getTime() + 86_400_000);
  await page.goto(`/calendar?month=${away.getUTCFullYear()}-${pad(away.getUTCMonth() + 1)}`);
  await page.getByRole('button', { name: new RegExp(`^${dayLabel(away)}\\b`) }).click();
  await expect(page.getByRole('heading', { name: dayLabel(away), level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Time off', level: 3 })).toBeVisible();
  await expect(page.getByText(`${name} (you)`, { exact: true })).toBeVisible();

  // Taking it back clears it from the profile.
  await page.goto('/profile');
  await page.getByRole('button', { name: /^Remove time off from/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No time off planned.')).toBeVisible();
});

/*
 * Time off covers only the days away (issue 35, decision 256): before saving, the dialog says who
 * covers which days; once saved, the manager of the rotation sees it in the team's list.
 */
test('the dialog shows the impact before saving; the manager sees it in the team list', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('Iris Impact');
  const email = `impact.${Date.now().toString(36)}@example.com`;
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const invited = await admin.post('/api/invitations', { data: { email, name, role: 'member' } });
  expect(invited.status(), await invited.text()).toBe(201);
  await admin.dispose();
  const res = await page.request.post('/api/auth/login', {
    headers: appOrigin(),
    data: { email, password: E2E_PASSWORD },
  });
  expect(res.ok(), `sign-in as ${email}`).toBe(true);
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  const team = uniqueName('Impact team');
  await createRotation(manager, team, [{ email, name }, accounts.sam], { timeZone: 'UTC' });
  await manager.dispose();

  // Away for four days from tomorrow 00:00 UTC: two of Iris's daily shifts at least fall in it.
  const today = new Date();
  const start = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1),
  );
  const end = new Date(start.getTime() + 4 * 86_400_000);
  // Time off has its own menu entry (decision 260).
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Time off', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Time off', level: 1 })).toBeVisible();
  // A member sees their own time off, not a team's.
  await expect(page.getByRole('heading', { name: 'Team time off' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Add time off' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add time off' });
  await dialog.getByLabel('Start time').fill(local(start));
  await dialog.getByLabel('End time').fill(local(end));
  const impact = dialog.getByRole('region', { name: 'Impact on the rotations' });
  await expect(impact).toContainText(new RegExp(`${accounts.sam.name} covers .+ in ${team}\\.`));
  await dialog.getByRole('button', { name: 'Add time off' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('list', { name: 'Time off' }).getByRole('listitem')).toHaveCount(1);

  // The rotation's manager sees it in the team's list, the person linking to their page.
  const context = await browser.newContext();
  const managerPage = await context.newPage();
  const signed = await managerPage.request.post(`${baseURL}/api/auth/login`, {
    headers: appOrigin(),
    data: { email: accounts.manager.email, password: E2E_PASSWORD },
  });
  expect(signed.ok()).toBe(true);
  await managerPage.goto(`${baseURL}/time-off`);
  const list = managerPage.getByRole('list', { name: 'Team time off' });
  await expect(list.getByRole('link', { name })).toBeVisible();
  await context.close();
});
