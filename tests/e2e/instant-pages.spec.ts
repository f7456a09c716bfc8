import type { Rotation } from '../../src/shared/contracts/rotations';
import { expect, test } from './fixtures';
import { apiAs, toast, uniqueName, userIds } from './rotation-support';
import { accounts } from './support';

/*
 * Pages that feel instant (issue 35): a signed-in load paints the dashboard without the session's
 * "Loading..." in between (the page carries its signed-in user), and a baton passed shows on the
 * card before the server answers, put back with the error when it refuses.
 */

test('a signed-in load of the dashboard never shows "Loading..."; it does not wait for GET /api/auth/user', async ({
  page,
  login,
}) => {
  await login(accounts.onCall);
  // Every text the page ever shows, from its first node on, is checked for the word.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { loadingSeen: seen });
    new MutationObserver(() => {
      const text = document.body?.textContent ?? '';
      if (/Loading\.\.\./.test(text)) seen.push(text.slice(0, 80));
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  // Who is signed in is never answered: the screen must not wait for it. (The rotations list
  // asks it first, the specification's order, and so stays loading.)
  await page.route('**/api/auth/user*', () => undefined);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your Rotations' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { loadingSeen: string[] }).loadingSeen),
  ).toEqual([]);
});

test('a baton passed shows on the card before the server answers, and comes back with the error when it refuses', async ({
  page,
  playwright,
  baseURL,
  login,
}) => {
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  const ids = await userIds(manager);
  const made = await manager.post('/api/rotations', {
    data: {
      name: uniqueName('E2E Instant pass'),
      description: null,
      type: 'fixed',
      cadence: 'weekly',
      memberIds: [ids.get(accounts.onCall.email), ids.get(accounts.sam.email)],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const rotation = (await made.json()) as Rotation;
  await manager.dispose();
  expect(rotation.currentOnCall?.name).toBe(accounts.onCall.name);

  await login(accounts.onCall);
  await page.goto(`/rotations/${rotation.id}`);
  const card = page
    .locator('[data-slot=card]')
    // Found while a dialog is open too, when the page behind it is hidden from the tree.
    .filter({ has: page.getByRole('heading', { name: 'Current On-Call', includeHidden: true }) });
  await expect(card).toContainText(accounts.onCall.name);

  // The server's answer is held until the test lets it go: first a refusal.
  let release: (refuse: boolean) => void = () => undefined;
  await page.route(`**/api/rotations/${rotation.id}/handoff*`, async (route) => {
    const refuse = await new Promise<boolean>((resolve) => {
      release = resolve;
    });
    if (refuse) {
      await route.fulfill({
        status: 409,
        json: { message: 'Someone passed the baton first.', code: 'CONFLICT' },
      });
    } else {
      await route.fallback();
    }
  });
  const pass = async () => {
    await card.getByRole('button', { name: 'Pass Baton' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pass the baton' });
    await dialog.getByRole('combobox', { name: 'Pass baton to' }).click();
    await page.getByRole('option', { name: accounts.sam.name }).click();
    await dialog.getByRole('button', { name: 'Confirm handoff' }).click();
    // The specification's pending dialog; behind it, the card already names Sam.
    await expect(dialog.getByRole('button', { name: 'Passing baton...' })).toBeVisible();
    await expect(card).toContainText(accounts.sam.name);
    await expect(card).not.toContainText(accounts.onCall.name);
    return dialog;
  };
  const dialog = await pass();
  release(true);
  await expect(toast(page, 'Someone passed the baton first.')).toBeVisible();
  await expect(card).toContainText(accounts.onCall.name);
  await expect(card).not.toContainText(accounts.sam.name);
  // A refusal leaves the dialog open (the specification); confirming again goes through.
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm handoff' }).click();
  await expect(card).toContainText(accounts.sam.name);
  release(false);
  await expect(toast(page, 'Baton passed successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText(accounts.sam.name);
});
