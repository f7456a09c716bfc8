import { expect, test } from '@playwright/test';
import { actAs, apiAs, createRotation, toast, uniqueName } from './rotation-support';
import { accounts, appOrigin } from './support';

/**
 * An incident's life on its page (decision 261): its number and its times to acknowledge and to
 * resolve, links in its text that open safely, a resolution note given when resolving and shown
 * on the incident and in its timeline, and Reopen, which pages its policy's first step again.
 * And issue 35's bug: an incident an integration raised and resolved names the integration in the
 * page history and on the incident, never "a deleted user".
 */

test('a responder acknowledges, resolves with a note, and reopens an incident', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  const { request } = playwright;
  const api = await apiAs(request, baseURL, accounts.manager);
  const rotation = await createRotation(api, uniqueName('Checkout'), [
    accounts.manager,
    accounts.noah,
  ]);
  // Morgan holds the baton, so step 1 pages him (a rotation with nobody on call takes no page).
  const took = await api.post(`/api/rotations/${rotation.id}/take-oncall`);
  expect([200, 201, 409]).toContain(took.status());
  const title = uniqueName('Checkout API returning 500s');
  const raised = await api.post('/api/incidents', {
    data: {
      title,
      severity: 'P1',
      rotationId: rotation.id,
      description: 'Dashboard: https://grafana.example.com/d/checkout. Deploy 1.4.2 went out.',
    },
  });
  expect(raised.status(), await raised.text()).toBe(201);
  const { id } = (await raised.json()) as { id: number };
  await api.dispose();

  await actAs(page, request, baseURL, accounts.manager);
  await page.goto(`/incidents/${id}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText(`Incident #${id}`, { exact: true })).toBeVisible();
  await expect(page.getByText('Not acknowledged yet', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Open for /)).toBeVisible();
  // The address in the description is a link that opens in a new tab, without this page.
  const dashboard = page
    .getByRole('region', { name: 'Description' })
    .getByRole('link', { name: 'https://grafana.example.com/d/checkout' });
  await expect(dashboard).toHaveAttribute('href', 'https://grafana.example.com/d/checkout');
  await expect(dashboard).toHaveAttribute('target', '_blank');
  await expect(dashboard).toHaveAttribute('rel', 'noopener noreferrer');

  await page.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(toast(page, 'Incident acknowledged')).toBeVisible();
  await expect(page.getByText('Not acknowledged yet', { exact: true })).toHaveCount(0);

  // Resolve asks for a resolution note; its link can be clicked on the incident.
  await page.getByRole('button', { name: 'Resolve' }).click();
  const resolve = page.getByRole('dialog', { name: 'Resolve incident' });
  await resolve
    .getByLabel('Resolution note (optional)')
    .fill('Rolled back to 1.4.1, see https://status.example.com/incidents/42.');
  await resolve.getByRole('button', { name: 'Resolve' }).click();
  await expect(toast(page, 'Incident resolved')).toBeVisible();
  await expect(resolve).toHaveCount(0);
  const note = page.getByRole('alert').filter({ hasText: 'Resolution note' });
  await expect(note).toContainText('Rolled back to 1.4.1');
  await expect(
    note.getByRole('link', { name: 'https://status.example.com/incidents/42' }),
  ).toHaveAttribute('rel', 'noopener noreferrer');
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('Resolved by Morgan Manager', { exact: true })).toBeVisible();
  await expect(timeline.getByText('Rolled back to 1.4.1', { exact: false })).toBeVisible();
  await expect(page.getByText(/^Open for /)).toHaveCount(0);

  // Reopen: the incident is triggered again and its first step pages its holder again.
  await page.getByRole('button', { name: 'Reopen' }).click();
  const reopen = page.getByRole('dialog', { name: 'Reopen incident' });
  await reopen.getByLabel('Reason (optional)').fill('Errors are back after the rollback');
  await reopen.getByRole('button', { name: 'Reopen' }).click();
  await expect(toast(page, 'Incident reopened')).toBeVisible();
  await expect(
    timeline.getByText('Reopened by Morgan Manager: Errors are back after the rollback'),
  ).toBeVisible();
  await expect(page.getByText('Triggered', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Not acknowledged yet', { exact: true })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Resolution note' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Acknowledge' })).toBeVisible();
});

test('an incident an integration raised and resolved names the integration, never a deleted user', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  const { request } = playwright;
  const api = await apiAs(request, baseURL, accounts.manager);
  const rotation = await createRotation(api, uniqueName('Storage'), [
    accounts.manager,
    accounts.noah,
  ]);
  const name = uniqueName('Grafana production');
  const created = await api.post('/api/integrations', {
    data: { name, rotationId: rotation.id },
  });
  expect(created.status()).toBe(201);
  const { key } = (await created.json()) as { key: string };
  await api.dispose();

  await actAs(page, request, baseURL, accounts.manager);
  const summary = uniqueName('Disk full on db1');
  for (const action of ['trigger', 'resolve']) {
    const sent = await page.request.post('/api/alerts/pagerduty/v2/enqueue', {
      headers: appOrigin(),
      data: {
        routing_key: key,
        event_action: action,
        dedup_key: `disk-${summary}`,
        payload: { summary, source: 'db1.example.com', severity: 'critical' },
      },
    });
    expect(sent.status(), await sent.text()).toBe(202);
  }

  await page.goto(`/pages?rotation=${rotation.id}`);
  const entry = page.getByRole('listitem').filter({ hasText: summary });
  await expect(entry.getByText(name, { exact: true })).toBeVisible();
  await expect(entry.getByText(`Resolved by ${name} (integration)`)).toBeVisible();
  await expect(page.getByText('a deleted user')).toHaveCount(0);

  await entry.getByRole('link', { name: /^Incident #\d+$/ }).click();
  await expect(page.getByRole('heading', { name: summary, level: 1 })).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText(`Raised by ${name} (integration)`)).toBeVisible();
  await expect(timeline.getByText(`Resolved by ${name} (integration)`)).toBeVisible();
  await expect(page.getByText('a deleted user')).toHaveCount(0);
});
