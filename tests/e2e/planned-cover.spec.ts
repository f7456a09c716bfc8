import { expect, test } from '@playwright/test';
import { apiAs, createRotation, signInPage, toast, uniqueName } from './rotation-support';
import { accounts } from './support';

/*
 * Planned cover (decision 218) in Chromium against the real server: Noah asks for cover from one
 * of his upcoming shifts on the calendar, Sam accepts it, and both see it accepted. The rotation
 * is new, so nobody holds it yet and Noah's first shift is the next daily boundary.
 */
test('a member asks for cover from a calendar shift; the colleague accepts it', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Cover');
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  const rotation = await createRotation(manager, name, [accounts.noah, accounts.sam]);
  await manager.dispose();

  await signInPage(page, playwright.request, baseURL ?? '', accounts.noah);
  // The month of Noah's first shift, in his own zone (the calendar shows his zone's months).
  const calendar = await page.request.get(
    `/api/calendar?from=${new Date().toISOString()}&to=${new Date(Date.now() + 7 * 86_400_000).toISOString()}`,
  );
  expect(calendar.ok()).toBe(true);
  const me = await (await page.request.get('/api/auth/user')).json();
  const shift = ((await calendar.json()).rotations as { id: number; shifts: Shift[] }[])
    .find((r) => r.id === rotation.id)
    ?.shifts.find((s) => s.userId === me.user.id);
  expect(shift, 'Noah has a shift in the coming week').toBeTruthy();
  const month = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    timeZone: me.user.timezone,
  })
    .format(new Date(shift?.start ?? ''))
    .slice(0, 7);
  await page.goto(`/calendar?rotation=${rotation.id}&month=${month}`);
  await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();

  // The first day that shows Noah's own shift; its details offer the shift's menu.
  await page
    .getByRole('button', { name: /Noah Nakamura \(you\)/ })
    .first()
    .click();
  await page
    .getByRole('button', { name: `Shift of ${accounts.noah.name} in ${name}: actions` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Ask for cover' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ask for cover' });
  await expect(dialog).toBeVisible();
  // Who should cover: Sam, with his on-call hours over the last 90 days.
  await expect(async () => {
    await dialog.getByRole('combobox', { name: 'Covering team member' }).click({ timeout: 2_000 });
    await page
      .getByRole('option', { name: /Sam Sullivan.*on call in 90 days/ })
      .click({ timeout: 2_000 });
    await expect(dialog.getByRole('combobox', { name: 'Covering team member' })).toContainText(
      accounts.sam.name,
      { timeout: 1_000 },
    );
  }).toPass({ timeout: 15_000 });
  await dialog.getByLabel('Notes (optional)').fill('Dentist, back by lunch');
  await dialog.getByRole('button', { name: 'Ask for cover' }).click();
  await expect(toast(page, 'Cover requested')).toBeVisible();
  await expect(dialog).toBeHidden();
  const mine = page
    .getByRole('region', { name: 'Your requests' })
    .getByRole('listitem')
    .filter({ hasText: name });
  await expect(mine.getByText(`You asked ${accounts.sam.name} to cover`)).toBeVisible();
  await expect(mine.getByText('Pending', { exact: true })).toBeVisible();

  // Sam answers on his calendar.
  await signInPage(page, playwright.request, baseURL ?? '', accounts.sam);
  await page.goto(`/calendar?rotation=${rotation.id}&month=${month}`);
  const asked = page
    .getByRole('region', { name: 'Asked of you' })
    .getByRole('listitem')
    .filter({ hasText: name });
  await expect(asked.getByText(`${accounts.noah.name} asks you to cover`)).toBeVisible();
  await expect(asked.getByText('“Dentist, back by lunch”')).toBeVisible();
  await asked.getByRole('button', { name: 'Accept' }).click();
  await expect(toast(page, 'Coverage accepted')).toBeVisible();
  await expect(asked.getByText('Accepted', { exact: true })).toBeVisible();

  // Noah sees it accepted, and the calendar shows Sam covering.
  await signInPage(page, playwright.request, baseURL ?? '', accounts.noah);
  await page.goto(`/calendar?rotation=${rotation.id}&month=${month}`);
  await expect(
    page
      .getByRole('region', { name: 'Your requests' })
      .getByRole('listitem')
      .filter({ hasText: name })
      .getByText('Accepted', { exact: true }),
  ).toBeVisible();
  await expect(
    page.getByRole('button', { name: /Sam Sullivan \(coverage\)/ }).first(),
  ).toBeVisible();
});

/*
 * "Arrange cover" on the calendar is offered where the viewer may arrange it: a manager sees it on
 * the shifts of a rotation they manage (one they made), not on one the administrator made without
 * them, where the server would refuse it.
 */
test('a manager is offered "Arrange cover" only in the rotations they manage', async ({
  page,
  playwright,
  baseURL,
}) => {
  const base = baseURL ?? '';
  const managed = uniqueName('E2E Managed');
  const other = uniqueName('E2E Not Managed');
  const manager = await apiAs(playwright.request, base, accounts.manager);
  const mine = await createRotation(manager, managed, [accounts.noah, accounts.sam]);
  await manager.dispose();
  const admin = await apiAs(playwright.request, base, accounts.admin);
  const theirs = await createRotation(admin, other, [accounts.noah, accounts.sam]);
  await admin.dispose();

  await signInPage(page, playwright.request, base, accounts.manager);
  for (const [rotation, name, offered] of [
    [mine, managed, true],
    [theirs, other, false],
  ] as const) {
    await page.goto(`/calendar?rotation=${rotation.id}`);
    await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
    // The grid's last day with a shift of the rotation, one still to come (a day's name is its
    // date, then each rotation's shifts).
    await page
      .getByRole('button', { name: new RegExp(`\\. ${name}: `) })
      .last()
      .click();
    const details = page.getByRole('listitem').filter({ hasText: name });
    await expect(details.getByText(/Noah Nakamura|Sam Sullivan/).first()).toBeVisible();
    const actions = page.getByRole('button', { name: new RegExp(`in ${name}: actions$`) });
    if (offered) {
      await actions.first().click();
      await expect(page.getByRole('menuitem', { name: 'Arrange cover' })).toBeVisible();
      await page.keyboard.press('Escape');
    } else {
      await expect(actions).toHaveCount(0);
    }
  }
});

type Shift = { userId: number; start: string; end: string; source: string };
