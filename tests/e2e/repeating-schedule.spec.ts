import { expect, test } from '@playwright/test';
import { actAs, apiAs, chooseOption, createRotation, toast, uniqueName } from './rotation-support';
import { accounts } from './support';

test.describe.configure({ timeout: 120_000 });

/*
 * A repeating schedule entry (issue 32, decision 250) made through the add-schedule dialog, then
 * one of its occurrences changed to another person on its own.
 */

type Entry = {
  id: number;
  userId: number;
  startTime: string;
  repeats?: string;
  occurrences?: { startTime: string; endTime: string }[];
};

test('an admin adds a weekly series through the dialog and changes one occurrence', async ({
  page,
  playwright,
  baseURL,
}) => {
  const ZONE = 'America/New_York';
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const rotation = await createRotation(
    admin,
    uniqueName('E2E Repeating'),
    [accounts.noah, accounts.sam],
    { timeZone: ZONE },
  );
  await admin.dispose();

  await actAs(page, playwright.request, baseURL ?? '', accounts.admin);
  await page.goto(`/rotations/${rotation.id}`);
  await page.getByRole('button', { name: 'Add Schedule' }).click();
  const form = page.getByRole('dialog', { name: 'Add schedule' });
  await expect(form).toBeVisible();
  await chooseOption(page, form, 'Team member', accounts.noah.name);

  // Tomorrow in the admin's zone (America/New_York, as the rotation's).
  await form.getByRole('button', { name: 'Pick a start date' }).click();
  const calendar = page.locator('[data-slot=popover-content]');
  const [year, month, date] = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE })
    .format(new Date())
    .split('-')
    .map(Number);
  const tomorrow = new Date(year, month - 1, date + 1);
  const dayButton = calendar.locator(`button[data-day="${tomorrow.toLocaleDateString('en-US')}"]`);
  if ((await dayButton.count()) === 0) {
    await calendar.getByRole('button', { name: /next month/i }).click();
  }
  await dayButton.first().click();
  await form.getByRole('button', { name: '9:00 AM' }).click();
  await form.getByRole('button', { name: '8 hours' }).click();

  // Weekly starts on the start's own weekday; three times.
  await chooseOption(page, form, 'Repeats', 'Weekly');
  const weekday = tomorrow.toLocaleDateString('en-US', { weekday: 'short' });
  await expect(form.getByRole('button', { name: weekday })).toHaveAttribute('aria-pressed', 'true');
  await chooseOption(page, form, 'Ends', 'After N times');
  await form.getByLabel('Times').fill('3');
  await expect(form.getByText(`Weekly on ${weekday} 09:00–17:00, 3 times`)).toBeVisible();
  await form.getByRole('button', { name: 'Add schedule' }).click();
  await expect(toast(page, 'Schedule created')).toBeVisible();
  await expect(form).toBeHidden();

  // The list shows the series in words and its three occurrences.
  await expect(page.getByText(`Weekly on ${weekday} 09:00–17:00, 3 times`)).toBeVisible();
  const occurrenceRows = page
    .getByRole('row', { name: /Noah Nakamura/ })
    .filter({ has: page.getByLabel('Repeating') });
  await expect(occurrenceRows).toHaveCount(3);
  const before = (await (
    await page.request.get(`/api/rotations/${rotation.id}/schedules`)
  ).json()) as Entry[];
  expect(before).toHaveLength(1);
  const occurrences = before[0]?.occurrences ?? [];
  expect(occurrences).toHaveLength(3);

  // Change the second occurrence only: Sam instead of Noah.
  await occurrenceRows
    .nth(1)
    .getByRole('button', { name: /^Change Noah Nakamura's schedule entry/ })
    .click();
  const edit = page.getByRole('dialog', { name: 'Change schedule entry' });
  await expect(edit.getByRole('button', { name: 'This occurrence' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await chooseOption(page, edit, 'Team member', accounts.sam.name);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Schedule changed')).toBeVisible();
  await expect(edit).toBeHidden();

  await expect(occurrenceRows).toHaveCount(2);
  await expect(
    page.getByRole('row', { name: /Sam Sullivan/ }).filter({ hasText: 'Upcoming' }),
  ).toHaveCount(1);
  const after = (await (
    await page.request.get(`/api/rotations/${rotation.id}/schedules`)
  ).json()) as Entry[];
  const series = after.find((e) => e.id === before[0]?.id);
  expect(series?.occurrences?.map((o) => o.startTime)).toEqual([
    occurrences[0]?.startTime,
    occurrences[2]?.startTime,
  ]);
  const single = after.find((e) => e.id !== before[0]?.id);
  expect(single?.startTime).toBe(occurrences[1]?.startTime);
  expect(single?.repeats).toBeUndefined();
});
