import { expect, test } from '@playwright/test';
import {
  actAs,
  apiAs,
  chooseOption,
  createRotation,
  readRotation,
  toast,
  uniqueName,
  userIds,
} from './rotation-support';
import { accounts } from './support';

/*
 * The escalation policy editor (issue 16, decision 203): an administrator makes a policy of two
 * steps, reorders them from the keyboard, is told in words that a delay of 0 is refused, saves,
 * and the preview names who each step would notify now; then the rotation's page follows it.
 */
test('an administrator creates a policy, reorders its steps, previews it and assigns it', async ({
  page,
  playwright,
  baseURL,
}) => {
  const api = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const rotationName = uniqueName('E2E Policy Rotation');
  const made = await createRotation(api, rotationName, [accounts.priya, accounts.noah]);
  const priya = (await userIds(api)).get(accounts.priya.email);
  // Priya holds the baton: the preview's holder.
  const assigned = await api.post(`/api/rotations/${made.id}/assign-oncall`, {
    data: { toUserId: priya },
  });
  expect(assigned.ok(), await assigned.text()).toBe(true);
  await api.dispose();
  await actAs(page, playwright.request, baseURL ?? '', accounts.admin);
  const rotation = await readRotation(page, made.id);
  expect(rotation.currentOnCallUserId).toBe(priya);
  const holderName = accounts.priya.name;
  const policyName = uniqueName('E2E Policy');

  await page.goto('/escalation-policies');
  await expect(page.getByRole('heading', { name: 'Escalation Policies', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'New policy' }).click();
  await expect(page.getByRole('heading', { name: 'New escalation policy' })).toBeVisible();
  await expect(
    page.getByText('An incident keeps a copy of the policy as it was when it was raised', {
      exact: false,
    }),
  ).toBeVisible();

  await page.getByLabel('Policy name').fill(policyName);
  // Step 1: the rotation's holder, then 5 minutes.
  const first = page.getByRole('group', { name: 'Step 1', exact: true });
  await chooseOption(page, first, 'Rotation', rotationName);
  await first.getByLabel('Minutes before the next step').fill('5');
  // Step 2: a named person.
  await page.getByRole('button', { name: 'Add step' }).click();
  const second = page.getByRole('group', { name: 'Step 2', exact: true });
  await chooseOption(page, second, 'Whom', 'A person');
  await chooseOption(page, second, 'Person', accounts.sam.name);
  await second.getByLabel('Minutes before the next step').fill('10');

  // Reorder from the keyboard: the person's step moves up to be first.
  await page.getByRole('button', { name: 'Move step 2 up' }).focus();
  await page.keyboard.press('Enter');
  await expect(first.getByLabel('Person')).toHaveText(accounts.sam.name);
  await expect(first.getByLabel('Minutes before the next step')).toHaveValue('10');
  await expect(second.getByLabel('Rotation')).toHaveText(rotationName);

  // A delay of 0 is refused in words next to the field, and nothing is created.
  await second.getByLabel('Minutes before the next step').fill('0');
  await page.getByRole('button', { name: 'Create policy' }).click();
  await expect(second.getByText('A delay must be at least 1 minute')).toBeVisible();
  await expect(second.getByLabel('Minutes before the next step')).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(page).toHaveURL(/\/escalation-policies\/new$/);

  await second.getByLabel('Minutes before the next step').fill('5');
  await page.getByRole('button', { name: 'Create policy' }).click();
  await expect(toast(page, 'Policy created')).toBeVisible();
  await expect(page).toHaveURL(/\/escalation-policies\/\d+$/);
  const policyId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByRole('heading', { name: policyName, level: 1 })).toBeVisible();

  // The preview names who each step would notify now, in the saved order.
  const preview = page.getByRole('region', { name: 'Who would be paged now' });
  const steps = preview.getByRole('listitem').filter({ hasText: /^Step \d/ });
  await expect(steps.nth(0)).toContainText(`At this step now: ${accounts.sam.name} (named), by`);
  await expect(steps.nth(1)).toContainText(`At this step now: ${holderName} (holder), by`);

  const stored = await page.request.get(`/api/escalation-policies/${policyId}`);
  expect(stored.ok()).toBe(true);
  const policy = (await stored.json()) as {
    steps: { delayMinutes: number; targets: { type: string; id: number }[] }[];
  };
  expect(policy.steps.map((s) => [s.delayMinutes, s.targets[0]?.type])).toEqual([
    [10, 'user'],
    [5, 'rotation-holder'],
  ]);

  // A saved change (the holder's step first again) is what the preview shows next.
  await page.getByRole('button', { name: 'Move step 2 up' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(toast(page, 'Policy saved')).toBeVisible();
  await expect(steps.nth(0)).toContainText(`At this step now: ${holderName} (holder), by`);
  await expect(steps.nth(1)).toContainText(`At this step now: ${accounts.sam.name} (named), by`);

  // The rotation's settings choose the policy; the page links to it.
  await page.goto(`/rotations/${rotation.id}`);
  const settings = page
    .getByRole('heading', { name: 'Settings', level: 2 })
    .locator('..')
    .locator('..');
  await chooseOption(page, settings, 'Policy', policyName);
  await expect(toast(page, 'Escalation policy changed')).toBeVisible();
  await expect(page.getByRole('link', { name: `Escalation policy: ${policyName}` })).toBeVisible();
  expect((await readRotation(page, rotation.id)) as unknown).toMatchObject({
    escalationPolicyId: policyId,
  });

  await page.getByRole('link', { name: `Escalation policy: ${policyName}` }).click();
  await expect(page).toHaveURL(new RegExp(`/escalation-policies/${policyId}$`));
  await expect(page.getByText(`Followed by ${rotationName}.`)).toBeVisible();
});
