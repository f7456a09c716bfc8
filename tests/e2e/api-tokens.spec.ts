import { expect, test } from '@playwright/test';
import { audit, type Finding } from './accessibility-support';
import { animationsDone } from './axe';
import { actAs, apiAs, createRotation, uniqueName } from './rotation-support';
import { accounts } from './support';

/**
 * Personal API tokens (issue 20, decision 223), on the server playwright.config.ts starts: a
 * member creates a read token in their profile and sees it once; a script (Playwright's API
 * client: no cookie, no Origin) lists rotations with it and is refused a pass; revoked in the
 * profile, it is refused at once.
 */

test('a token made in the profile is shown once, reads the API, cannot pass, and stops when revoked', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('no baseURL');
  const { request } = playwright;
  const manager = await apiAs(request, baseURL, accounts.manager);
  const rotation = await createRotation(manager, uniqueName('Token team'), [
    accounts.noah,
    accounts.sam,
  ]);
  await manager.dispose();
  const name = uniqueName('Inventory script');

  await actAs(page, request, baseURL, accounts.noah);
  await page.goto('/profile');
  const card = page.getByRole('heading', { name: 'API tokens', level: 2 });
  await expect(card).toBeVisible();
  // Every call is a link away: the API reference, in a tab of its own (decision 260).
  const reference = page.getByRole('link', { name: /^API reference/ });
  await expect(reference).toHaveAttribute('href', '/api/docs/');
  await expect(reference).toHaveAttribute('target', '_blank');
  await page.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API token' });
  await dialog.getByLabel('Name').fill(name);
  await expect(dialog.getByLabel('Expires in (days)')).toHaveValue('90');
  const findings: Finding[] = [];
  await animationsDone(page);
  findings.push(...(await audit(page, '/profile (create API token)')));
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect(dialog).toBeHidden();

  const panel = page.getByRole('region', { name: `New API token ${name}` });
  await expect(panel).toContainText('it will not be shown again');
  const token = (await panel.locator('code').last().textContent()) ?? '';
  expect(token).toMatch(/^baton_[A-Za-z0-9_-]{43}$/);
  findings.push(...(await audit(page, '/profile (new API token)')));
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  await panel.getByRole('button', { name: 'I have copied the token' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByText(token)).toHaveCount(0);
  const item = page.getByRole('list', { name: 'API tokens' }).getByRole('listitem').filter({
    hasText: name,
  });
  await expect(item).toContainText('Read');
  await expect(item).toContainText(`…${token.slice(-4)}`);
  await expect(item).toContainText('Last used never');

  // A script: the token alone, no cookie, no Origin.
  const script = await request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  const list = await script.get('/api/rotations');
  expect(list.status(), await list.text()).toBe(200);
  expect(((await list.json()) as { id: number }[]).map((r) => r.id)).toContain(rotation.id);
  const pass = await script.post(`/api/rotations/${rotation.id}/handoff`, { data: {} });
  expect(pass.status()).toBe(403);
  expect((await pass.json()).message).toContain("This API token's scope is read");

  await page.reload();
  await expect(item).not.toContainText('Last used never');
  await item.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Revoke ${name}?` });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(confirm).toBeHidden();
  await expect(item).toHaveCount(0);
  const after = await script.get('/api/rotations');
  expect(after.status()).toBe(401);
  await script.dispose();
});
