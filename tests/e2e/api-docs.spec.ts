import { expect, test } from '@playwright/test';

/*
 * The API reference (issue 20, decision 224): Scalar's page at /api/docs/, its script served by
 * Baton, under a policy that allows its one inline script by hash. It renders the document made
 * from the routes' schemas, with no console error (a refused script or style would be one) and
 * no request leaving Baton (it must work offline).
 */

test('the API reference renders the document, offline and within its policy', async ({
  page,
  baseURL,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== new URL(baseURL!).origin) {
      elsewhere.push(request.url());
    }
  });

  await page.goto('/api/docs');
  await expect(page).toHaveURL(/\/api\/docs\/$/);
  await expect(page).toHaveTitle('Baton API');
  // Scalar draws the whole document in the page: its first paint is the slowest of the suite
  // (over 7 s once, as a shard's first test while three servers started).
  await expect(page.getByRole('heading', { name: 'Baton API' }).first()).toBeVisible({
    timeout: 30_000,
  });
  // Operations are grouped by their path's first segment: the rotations' group lists its routes.
  await page.getByRole('link', { name: 'rotations', exact: true }).first().click();
  await expect(page.getByText('/api/rotations/{id}/take-oncall').first()).toBeVisible();
  await expect(page.getByText('Ask AI')).toHaveCount(0);

  expect(errors).toEqual([]);
  expect(elsewhere).toEqual([]);
});
