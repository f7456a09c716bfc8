import { expect, test } from '@playwright/test';
import { apiAs, createRotation, signInPage, uniqueName } from './rotation-support';
import { accounts } from './support';

// The engine tells shift changes SHIFT_CHANGE_DELAY_SECONDS (2 s here) after an edit, at its next
// tick (every 2 s here, ENGINE_INTERVAL_SECONDS in playwright.config.ts).
test.describe.configure({ timeout: 90_000 });
test.use({ timezoneId: 'UTC', locale: 'en-US' });

/*
 * "Your shift moved" (issue 18, decision 219): a person whose shifts an edit moved finds a notice
 * on the dashboard, in words, and dismisses it for good.
 */

test('the dashboard shows a notice of moved shifts, and dismissing it removes it for good', async ({
  page,
  playwright,
  baseURL,
}) => {
  const base = baseURL ?? '';
  const request = playwright.request;
  const manager = await apiAs(request, base, accounts.manager);
  const name = uniqueName('Shift notice');
  // Adding Sam and Noah gives each of them their first shifts in the rotation.
  const rotation = await createRotation(manager, name, [accounts.sam, accounts.noah], {
    cadence: 'weekly',
  });
  await manager.dispose();

  const sam = await apiAs(request, base, accounts.sam);
  await expect
    .poll(
      async () => {
        const notices = (await (await sam.get('/api/user/shift-notices')).json()) as {
          rotation: { id: number };
        }[];
        return notices.filter((n) => n.rotation.id === rotation.id).length;
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(1);
  await sam.dispose();

  await signInPage(page, request, base, accounts.sam);
  await page.goto('/');
  const notice = page.getByRole('alert').filter({ hasText: `Your shifts in ${name} changed` });
  await expect(notice).toBeVisible();
  await expect(notice.getByRole('listitem').first()).toContainText(`You have a new shift Mon`);
  await expect(notice.getByRole('listitem').first()).toContainText(`in ${name}.`);
  await expect(notice.getByRole('link', { name: 'Open the rotation' })).toHaveAttribute(
    'href',
    `/rotations/${rotation.id}`,
  );

  await notice.getByRole('button', { name: `Dismiss the notice about ${name}` }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your Rotations' })).toContainText(name);
  await expect(notice).toHaveCount(0);
});

/*
 * Quiet and current notices (issue 35, decision 262): a later batch of edits replaces the
 * person's notice about the rotation rather than stacking a second one, on a phone as anywhere.
 */
test('on a phone, a later edit replaces the notice about the rotation: one notice, not two', async ({
  page,
  playwright,
  baseURL,
}) => {
  const base = baseURL ?? '';
  const request = playwright.request;
  const manager = await apiAs(request, base, accounts.manager);
  const name = uniqueName('One notice');
  const rotation = await createRotation(manager, name, [accounts.sam, accounts.noah], {
    cadence: 'weekly',
  });

  const sam = await apiAs(request, base, accounts.sam);
  type Notice = { id: number; rotation: { id: number }; sentences: string[] };
  const samsNotices = async () =>
    ((await (await sam.get('/api/user/shift-notices')).json()) as Notice[]).filter(
      (n) => n.rotation.id === rotation.id,
    );
  await expect
    .poll(async () => (await samsNotices()).length, { timeout: 60_000, intervals: [1_000] })
    .toBe(1);
  const [first] = await samsNotices();

  // A second batch of edits, after the first was told: the handoff moves to 13:30.
  const moved = await manager.patch(`/api/rotations/${rotation.id}`, {
    data: { handoffTime: '13:30' },
  });
  expect(moved.status(), await moved.text()).toBe(200);
  await manager.dispose();
  await expect
    .poll(async () => (await samsNotices()).map((n) => n.id), {
      timeout: 60_000,
      intervals: [1_000],
    })
    .not.toEqual([first.id]);
  const [latest] = await samsNotices();
  expect(await samsNotices()).toHaveLength(1);
  await sam.dispose();

  await page.setViewportSize({ width: 390, height: 844 });
  await signInPage(page, request, base, accounts.sam);
  await page.goto('/');
  const notices = page.getByRole('alert').filter({ hasText: `Your shifts in ${name} changed` });
  await expect(notices).toHaveCount(1);
  // Its first change is the latest one's, and still reads as a new shift of Sam's.
  await expect(notices.getByRole('listitem').first()).toHaveText(latest.sentences[0]);
  await expect(notices.getByRole('listitem').first()).toContainText('You have a new shift');
  // A long list opens on demand, so the notice stays short on a phone.
  const items = notices.getByRole('listitem');
  if (latest.sentences.length > 3) {
    await expect(items).toHaveCount(3);
    await notices.getByRole('button', { name: /^Show \d+ more changes?$/ }).click();
  }
  await expect(items).toHaveCount(latest.sentences.length);
  const box = await notices.boundingBox();
  expect(box?.width ?? 0).toBeLessThanOrEqual(390);
});
