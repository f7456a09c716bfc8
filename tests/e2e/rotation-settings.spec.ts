import { expect, test } from '@playwright/test';
import { nextHandoffAt, type ShiftPattern } from '../../src/shared/domain/shifts';
import { animationsDone, axeBuilder } from './axe';
import { actAs, chooseOption, readRotation, toast, uniqueName } from './rotation-support';
import { accounts } from './support';

// A ceiling: its test took 31 s with three shards on two cores, over the 30 s default outside CI.
test.describe.configure({ timeout: 120_000 });

/*
 * A rotation's time zone and handoff time (the clock issue) in Chromium: the create form's
 * defaults come from the manager's profile, any IANA zone can be searched for and chosen, and the
 * rotation page shows the handoff schedule; the server's next handoff is what the shared
 * nextHandoffAt says.
 */

test('a manager sets the time zone and handoff time when creating, then edits them', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Clock');
  // Morgan's profile time zone is Europe/London.
  await actAs(page, playwright.request, baseURL ?? '', accounts.manager);
  await page.goto('/rotations');
  await page.getByRole('button', { name: 'New Rotation' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Rotation' });

  // Defaults: the profile's zone, 09:00, weekly on Monday.
  const zone = create.getByRole('combobox', { name: 'Time zone' });
  await expect(zone).toHaveText('Europe/London');
  await expect(create.getByLabel('Handoff time')).toHaveValue('09:00');
  await expect(create.getByLabel('Cadence')).toHaveText('Weekly');
  await expect(create.getByLabel('Handoff day')).toHaveText('Monday');

  await create.getByLabel('Name').fill(name);
  await chooseOption(page, create, 'Cadence', 'Daily');
  await expect(create.getByLabel('Handoff day')).toHaveCount(0);

  // Every IANA zone is offered, not only the profile's nine; the list scrolls inside the dialog.
  await zone.click();
  const search = page.getByRole('combobox', { name: 'Search time zones' });
  await expect(search).toBeFocused();
  const list = page.getByRole('listbox', { name: 'Time zones' });
  await expect(list.getByRole('option', { name: /^Europe\/London/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  expect(await list.getByRole('option').count()).toBeGreaterThan(400);
  await animationsDone(page);
  const axe = await axeBuilder(page)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual(
    [],
  );
  const top = await list.evaluate((el) => el.scrollTop);
  await list.hover();
  await page.mouse.wheel(0, 1500);
  await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeGreaterThan(top);

  // Search by words, pick from the keyboard.
  await search.fill('kolk');
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option')).toHaveAccessibleName(/^Asia\/Kolkata UTC\+05:30$/);
  await search.fill('no such zone');
  await expect(list.getByText('No time zone found.')).toBeVisible();
  await search.fill('buenos aires');
  await search.press('Enter');
  await expect(list).toBeHidden();
  await expect(zone).toHaveText('America/Argentina/Buenos_Aires');
  await expect(zone).toBeFocused();
  await zone.click();
  await search.fill('kolkata');
  await list.getByRole('option', { name: /^Asia\/Kolkata/ }).click();
  await expect(zone).toHaveText('Asia/Kolkata');
  await create.getByLabel('Handoff time').fill('07:30');

  await create.getByRole('button', { name: 'Create Rotation' }).click();
  await expect(toast(page, 'Rotation created')).toBeVisible();
  await expect(page).toHaveURL(/\/rotations\/\d+$/);
  const id = Number(page.url().split('/').pop());
  const settings = page.getByRole('definition');
  await expect(settings.filter({ hasText: 'Every day at 07:30' })).toBeVisible();
  await expect(settings.filter({ hasText: 'Asia/Kolkata' })).toBeVisible();
  let pattern: ShiftPattern = {
    cadence: 'daily',
    timeZone: 'Asia/Kolkata',
    handoffTime: '07:30',
    handoffWeekday: 1,
  };
  let created = await readRotation(page, id);
  expect(created.nextHandoffTime).toBe(nextHandoffAt(pattern, new Date()).toISOString());

  // Edit to weekly on Friday. A refused save keeps the dialog open with what was entered.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit rotation' });
  await expect(edit.getByRole('combobox', { name: 'Time zone' })).toHaveText('Asia/Kolkata');
  await expect(edit.getByLabel('Handoff time')).toHaveValue('07:30');
  await chooseOption(page, edit, 'Cadence', 'Weekly');
  await chooseOption(page, edit, 'Handoff day', 'Friday');
  let refuse = true;
  await page.route(`**/api/rotations/${id}?*`, async (route) => {
    if (route.request().method() !== 'PATCH' || !refuse) return route.fallback();
    refuse = false;
    await route.fulfill({
      status: 409,
      json: { message: 'The rotation changed while you were editing it.', code: 'CONFLICT' },
    });
  });
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Error updating rotation')).toBeVisible();
  await expect(toast(page, 'The rotation changed while you were editing it.')).toBeVisible();
  await expect(edit).toBeVisible();
  await expect(edit.getByLabel('Handoff day')).toHaveText('Friday');

  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Rotation updated')).toBeVisible();
  await expect(toast(page, 'Your rotation has been updated successfully.')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(settings.filter({ hasText: 'Fridays at 07:30' })).toBeVisible();
  await expect(settings.filter({ hasText: 'Asia/Kolkata' })).toBeVisible();
  await expect(page.getByText('Weekly', { exact: true })).toBeVisible();
  pattern = { ...pattern, cadence: 'weekly', handoffWeekday: 5 };
  created = await readRotation(page, id);
  expect(created).toMatchObject({ handoffWeekday: 5, handoffTime: '07:30' });
  expect(created.nextHandoffTime).toBe(nextHandoffAt(pattern, new Date()).toISOString());
});
