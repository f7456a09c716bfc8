import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { Rotation } from '../../src/shared/contracts/rotations';
import { axeBuilder } from './axe';
import { expect, openDashboard, test } from './fixtures';
import { apiAs, userIds } from './rotation-support';
import { accounts } from './support';

/*
 * Who is on call when, as lists (issue 35, decision 259), against the real server and its real
 * clock: the dashboard's "On call now and the next 7 days", the rotation page's "Upcoming shifts"
 * and a person's, each agreeing with what the rotation read says (who is on call now, who is
 * next and when), before and after the next person's time off moves their shift to the member
 * after them. Nothing here assumes a weekday or an hour: the times come from the API.
 */

const HOUR = 3_600_000;

async function readRotation(api: APIRequestContext, id: number) {
  const res = await api.get(`/api/rotations/${id}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as Rotation;
}

/** rotationItem returns the dashboard card's item of the rotation, opening "Show all" if needed. */
async function rotationItem(page: Page, name: string): Promise<Locator> {
  const card = page
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('heading', { name: 'On call now and the next 7 days' }) });
  const list = card.getByRole('list', { name: 'On call by rotation' });
  await expect(list).toBeVisible();
  const item = list.getByRole('listitem').filter({ has: page.getByRole('link', { name }) });
  const showAll = card.getByRole('button', { name: /^Show all \d+ rotations$/ });
  if ((await item.count()) === 0 && (await showAll.count()) > 0) await showAll.click();
  await expect(item).toBeVisible();
  return item;
}

/** showAll opens the whole "Upcoming shifts" list when it has more than it shows. */
async function showAll(page: Page) {
  const list = page.getByRole('list', { name: /^Upcoming shifts of / });
  await expect(list).toBeVisible();
  const button = page.getByRole('button', { name: /^Show all \d+$/ });
  if ((await button.count()) > 0) await button.click();
}

test('on call now and the next 7 days, upcoming shifts of a rotation and of a person, time off gone round', async ({
  page,
  playwright,
  baseURL,
  login,
}) => {
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const ids = await userIds(admin);
  const id = (who: { email: string }) => ids.get(who.email) ?? 0;
  const name = `E2E Upcoming ${Date.now().toString(36)}`;
  // Daily, the handoff an hour or two from now (whole hours in UTC), so a change falls in the week.
  const handoffTime = `${String(new Date(Date.now() + 2 * HOUR).getUTCHours()).padStart(2, '0')}:00`;
  const made = await admin.post('/api/rotations', {
    data: {
      name,
      description: null,
      type: 'fixed',
      cadence: 'daily',
      handoffTime,
      timeZone: 'UTC',
      memberIds: [id(accounts.sam), id(accounts.noah), id(accounts.priya)],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const rotationId = ((await made.json()) as Rotation).id;
  const before = await readRotation(admin, rotationId);
  expect(before.currentOnCall?.name).toBe(accounts.sam.name);
  const next = before.nextOnCall?.name ?? '';
  expect(next).toBe(accounts.noah.name);

  // The dashboard: Sam's rotation, Sam on call now, Noah from the next handoff on.
  await login(accounts.sam);
  await openDashboard(page);
  const item = await rotationItem(page, name);
  await expect(item.getByText('Yours', { exact: true })).toBeVisible();
  await expect(item.getByText(`Now: ${accounts.sam.name} until`)).toBeVisible();
  const changes = item.getByRole('list', { name: `Changes in ${name}` });
  await expect(changes.getByRole('listitem').first()).toContainText(accounts.noah.name);
  // Daily for a week: seven changes, three shown and the rest behind a button.
  await item.getByRole('button', { name: /^Show \d+ more changes$/ }).click();
  expect(await changes.getByRole('listitem').count()).toBeGreaterThanOrEqual(6);

  // The rotation page: Sam now, then Noah, then Priya.
  await page.goto(`/rotations/${rotationId}`);
  const upcoming = page.getByRole('list', { name: `Upcoming shifts of ${name}` });
  await expect(upcoming.getByRole('listitem').nth(0)).toContainText(accounts.sam.name);
  await expect(upcoming.getByRole('listitem').nth(0)).toContainText('Now');
  await expect(upcoming.getByRole('listitem').nth(1)).toContainText(accounts.noah.name);
  await expect(upcoming.getByRole('listitem').nth(2)).toContainText(accounts.priya.name);
  await expect(upcoming.getByRole('listitem')).toHaveCount(8);

  // Noah away for his next shift: it goes to Priya for that shift alone, as the API says.
  const nextAt = Date.parse(before.nextHandoffTime ?? '');
  const away = await admin.post(`/api/users/${id(accounts.noah)}/time-off`, {
    data: {
      startTime: new Date(nextAt + HOUR).toISOString(),
      endTime: new Date(nextAt + 2 * HOUR).toISOString(),
    },
  });
  expect(away.status(), await away.text()).toBe(201);
  const after = await readRotation(admin, rotationId);
  expect(after.nextOnCall?.name).toBe(accounts.priya.name);
  await page.reload();
  // Priya's cover of Noah's shift and her own turn after it are one stretch; then Sam, then Noah.
  await expect(upcoming.getByRole('listitem').nth(1)).toContainText(accounts.priya.name);
  await expect(upcoming.getByRole('listitem').nth(2)).toContainText(accounts.sam.name);
  await expect(upcoming.getByRole('listitem').nth(3)).toContainText(accounts.noah.name);

  // Sam's own profile: the shift under way, in this rotation.
  await page.goto('/profile');
  const mine = page.getByRole('list', { name: `Upcoming shifts of ${accounts.sam.name}` });
  await showAll(page);
  const current = mine.getByRole('listitem').filter({ has: page.getByRole('link', { name }) });
  await expect(current.first()).toContainText('Now');

  // Noah's page, as Sam sees it: his shift after Priya's, in this rotation, not now.
  await page.goto(`/people/${id(accounts.noah)}`);
  const his = page.getByRole('list', { name: `Upcoming shifts of ${accounts.noah.name}` });
  await showAll(page);
  const inRotation = his.getByRole('listitem').filter({ has: page.getByRole('link', { name }) });
  await expect(inRotation.first()).toBeVisible();
  await expect(inRotation.first()).not.toContainText('Now');

  // A phone: the lists fit 390 px, and nothing is inaccessible.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/', `/rotations/${rotationId}`, '/profile']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(
      page.getByRole('heading', {
        name: path === '/' ? 'On call now and the next 7 days' : 'Upcoming shifts',
      }),
    ).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, path).toBe(0);
  }
  const axe = await axeBuilder(page).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual(
    [],
  );
  await admin.delete(`/api/rotations/${rotationId}`);
  await admin.dispose();
});
