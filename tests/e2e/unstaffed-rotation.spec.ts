import { expect, test } from './fixtures';
import { actAs, apiAs, createRotation, toast, uniqueName } from './rotation-support';
import { accounts } from './support';

/*
 * A rotation with members and nobody on call (decision 263): flagged to its manager on the
 * dashboard, and a page raised on it goes on to the next step of its escalation policy instead
 * of being refused.
 */

test('a rotation with members and nobody on call is flagged to its manager, and its page reaches the policy’s next step', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Nobody on call');
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  // Members added one by one after the rotation is made: nobody takes the baton.
  const rotation = await createRotation(manager, name, [accounts.noah, accounts.sam]);
  const read = await manager.get(`/api/rotations/${rotation.id}`);
  const made = (await read.json()) as {
    currentOnCallUserId: number | null;
    nextOnCall: { name: string } | null;
  };
  expect(made.currentOnCallUserId).toBeNull();
  // The default policy's steps for the holder reach nobody; its last names the next on call.
  expect(made.nextOnCall?.name).toBe(accounts.noah.name);
  await manager.dispose();

  await actAs(page, playwright.request, baseURL ?? '', accounts.manager);
  const flag = page.getByRole('alert').filter({ hasText: 'Nobody is on call for' });
  await expect(flag).toBeVisible();
  await flag.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('No one assigned')).toBeVisible();

  await page.getByRole('button', { name: 'Page On-Call' }).click();
  const dialog = page.getByRole('dialog', { name: 'Page on-call' });
  await expect(
    dialog.getByText(
      `No one is on call for ${name} now: the page goes on to the next step of its escalation policy.`,
    ),
  ).toBeVisible();
  await dialog.getByLabel('Message').fill('Checkout is failing');
  await dialog.getByRole('button', { name: /Send Page/i }).click();
  await expect(toast(page, `Page alert sent to ${accounts.noah.name}.`)).toBeVisible();
});
