import { expect, type Page, test } from '@playwright/test';
import { actAs, apiAs, chooseOption, createRotation, toast, uniqueName } from './rotation-support';
import { accounts, appOrigin } from './support';

/**
 * Integrations (issue 17, decision 214), on the server playwright.config.ts starts. A manager adds
 * an integration to a rotation they manage, reads its key from the one-time panel, sends a test
 * alert and finds it in Recent alerts; then a PagerDuty Events v2 event sent with the key raises
 * an incident whose page shows the integration, the alert's details and its links. A member sees
 * the integrations but none of the buttons that change them.
 */

/** integrationItem is the integration's entry in the rotation page's Integrations card. */
function integrationItem(page: Page, name: string) {
  return page
    .getByRole('list', { name: 'Integrations' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, level: 3 }) });
}

test('a manager adds an integration, tests it, and a PagerDuty event raises an incident with its details', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  const { request } = playwright;
  const api = await apiAs(request, baseURL, accounts.manager);
  const rotation = await createRotation(api, uniqueName('Payments'), [
    accounts.manager,
    accounts.noah,
  ]);
  await api.dispose();
  const name = uniqueName('Prometheus production');

  await actAs(page, request, baseURL, accounts.manager);
  await page.goto(`/rotations/${rotation.id}`);
  await expect(page.getByRole('heading', { name: 'Integrations', level: 2 })).toBeVisible();
  await expect(page.getByText('No integrations yet.', { exact: false })).toBeVisible();

  // The dialog checks the name with the contract's own message, then creates the integration.
  await page.getByRole('button', { name: 'Add integration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add integration' });
  await dialog.getByRole('button', { name: 'Add integration' }).click();
  await expect(dialog.getByText('Enter a name', { exact: true })).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Add integration' }).click();
  await expect(toast(page, 'Integration created')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // The key shows once, with the configurations filled in with it.
  const item = integrationItem(page, name);
  const panel = item.getByRole('region', { name: `Key of ${name}` });
  await expect(panel.getByText('Copy this key now: it will not be shown again')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Copy key' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Copy URL' })).toBeVisible();
  const key = ((await panel.getByRole('code').first().textContent()) ?? '').trim();
  expect(key).toMatch(/^[0-9a-f]{32}$/);
  await expect(item.getByText(`routing_key: '${key}'`)).toBeVisible();
  await expect(item.getByText(`credentials: '${key}'`)).toBeVisible();
  await expect(item.getByText(`api_key: '${key}'`)).toBeVisible();
  await expect(
    item.getByRole('button', { name: 'Copy Alertmanager: webhook receiver' }),
  ).toBeVisible();
  // Its hint is the key's end; once hidden, the configurations hold a placeholder instead.
  await expect(item.getByText(`…${key.slice(-4)}`)).toBeVisible();
  await panel.getByRole('button', { name: 'I have copied the key' }).click();
  await expect(panel).toHaveCount(0);
  await expect(item.getByText("routing_key: '<KEY>'")).toBeVisible();
  await expect(item.getByText(key)).toHaveCount(0);

  // Send test alert warns whom it pages (decision 261), then the toast links to the incident it
  // raised; Recent alerts lists it.
  await item.getByRole('button', { name: 'Send test alert' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Send a test alert through ${name}?` });
  // Nobody holds this rotation's baton yet: its default policy reaches the next on call at step 3.
  await expect(
    confirm.getByText(
      `This pages ${accounts.manager.name}, next on call for ${rotation.name} (step 3 of`,
    ),
  ).toBeVisible();
  await confirm.getByRole('button', { name: 'Send test alert' }).click();
  await expect(toast(page, 'Test alert sent')).toBeVisible();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Open the incident' })).toBeVisible();
  await item.getByRole('button', { name: 'Recent alerts' }).click();
  const recent = item.getByRole('list', { name: `Recent alerts of ${name}` });
  const testAlert = recent.getByRole('listitem').filter({ hasText: 'Test alert' });
  await expect(testAlert).toHaveCount(1);
  await expect(testAlert.getByText('Raised an incident')).toBeVisible();
  await testAlert.getByRole('button').first().click();
  await expect(testAlert.getByText('Raw payload')).toBeVisible();

  // A monitoring tool speaking PagerDuty's Events API v2, with the key as its routing key.
  const summary = uniqueName('Disk full on db1');
  const sent = await page.request.post('/api/alerts/pagerduty/v2/enqueue', {
    headers: appOrigin(),
    data: {
      routing_key: key,
      event_action: 'trigger',
      dedup_key: `disk-db1-${summary}`,
      client: 'Prometheus',
      client_url: 'https://prometheus.example.com/alerts',
      payload: {
        summary,
        source: 'db1.example.com',
        severity: 'critical',
        custom_details: { mountpoint: '/var/lib/postgresql', free: '0.4%' },
      },
    },
  });
  expect(sent.status(), await sent.text()).toBe(202);
  expect(await sent.json()).toMatchObject({ status: 'success', message: 'Event processed' });

  // It is in Recent alerts (read again), linked to the incident it raised.
  await page.reload();
  const again = integrationItem(page, name);
  await again.getByRole('button', { name: 'Recent alerts' }).click();
  const event = again
    .getByRole('list', { name: `Recent alerts of ${name}` })
    .getByRole('listitem')
    .filter({ hasText: summary });
  await expect(event.getByText('PagerDuty Events v2')).toBeVisible();
  await event.getByRole('link', { name: /^Incident #\d+$/ }).click();

  // The incident reads like a page: the summary, severity, the integration, the details as a
  // table and the link back to the source.
  await expect(page).toHaveURL(/\/incidents\/\d+$/);
  await expect(page.getByRole('heading', { name: summary, level: 1 })).toBeVisible();
  await expect(page.getByText('P1 · Critical').first()).toBeVisible();
  await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  const alerts = page.getByRole('list', { name: 'Alerts' });
  await expect(alerts.getByRole('cell', { name: 'mountpoint' })).toBeVisible();
  await expect(alerts.getByRole('cell', { name: '/var/lib/postgresql' })).toBeVisible();
  // client_url, named by client, as an anchor to the source (opening in a new tab)
  await expect(alerts.getByRole('link', { name: /^Prometheus/ })).toHaveAttribute(
    'href',
    'https://prometheus.example.com/alerts',
  );
  await alerts.getByText('Raw payload').first().click();
  await expect(alerts.getByText('"mountpoint": "/var/lib/postgresql"')).toBeVisible();
});

test('a member sees a rotation’s integrations without the buttons that change them', async ({
  page,
  playwright,
  baseURL,
}) => {
  if (!baseURL) throw new Error('no baseURL');
  const { request } = playwright;
  const api = await apiAs(request, baseURL, accounts.manager);
  const rotation = await createRotation(api, uniqueName('Search'), [
    accounts.manager,
    accounts.onCall,
  ]);
  const name = uniqueName('Uptime checker');
  const made = await api.post('/api/integrations', { data: { name, rotationId: rotation.id } });
  expect(made.status(), await made.text()).toBe(201);
  await api.dispose();

  await actAs(page, request, baseURL, accounts.onCall);
  await page.goto(`/rotations/${rotation.id}`);
  const item = integrationItem(page, name);
  await expect(item).toBeVisible();
  await expect(item.getByText('Last used')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add integration' })).toHaveCount(0);
  for (const button of ['Send test alert', 'Edit', 'Regenerate key', 'Delete']) {
    await expect(item.getByRole('button', { name: button })).toHaveCount(0);
  }
  // The configurations are there to read, with the placeholder for the key nobody sees again.
  await item.getByRole('button', { name: 'Configuration' }).click();
  await expect(item.getByText("api_key: '<KEY>'")).toBeVisible();
});

test('regenerating a key shows the new one once and refuses the old; deleting asks first', async ({
  page,
  playwright,
  baseURL,
}) => {
  if (!baseURL) throw new Error('no baseURL');
  const { request } = playwright;
  const api = await apiAs(request, baseURL, accounts.manager);
  const rotation = await createRotation(api, uniqueName('Billing'), [accounts.manager]);
  const name = uniqueName('Cron jobs');
  const made = await api.post('/api/integrations', { data: { name, rotationId: rotation.id } });
  expect(made.status(), await made.text()).toBe(201);
  const oldKey = ((await made.json()) as { key: string }).key;
  await api.dispose();

  await actAs(page, request, baseURL, accounts.manager);
  await page.goto(`/rotations/${rotation.id}`);
  const item = integrationItem(page, name);
  await item.getByRole('button', { name: 'Regenerate key' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Regenerate the key of ${name}?` });
  await confirm.getByRole('button', { name: 'Regenerate key' }).click();
  await expect(toast(page, 'Key regenerated')).toBeVisible();
  const panel = item.getByRole('region', { name: `Key of ${name}` });
  const newKey = ((await panel.getByRole('code').first().textContent()) ?? '').trim();
  expect(newKey).toMatch(/^[0-9a-f]{32}$/);
  expect(newKey).not.toBe(oldKey);

  const refused = await page.request.post(`/api/alerts/generic?token=${oldKey}`, {
    headers: appOrigin(),
    form: { summary: 'Old key' },
  });
  expect(refused.status()).toBeGreaterThanOrEqual(400);
  expect(refused.status()).toBeLessThan(500);
  expect(await refused.text()).toContain('Unknown integration key');

  await item.getByRole('button', { name: 'Delete' }).click();
  const remove = page.getByRole('alertdialog', { name: `Delete ${name}?` });
  await remove.getByRole('button', { name: 'Cancel' }).click();
  await expect(item).toBeVisible();
  await item.getByRole('button', { name: 'Delete' }).click();
  await remove.getByRole('button', { name: 'Delete integration' }).click();
  await expect(toast(page, 'Integration deleted')).toBeVisible();
  await expect(integrationItem(page, name)).toHaveCount(0);
});

test('the Integrations screen lists them across rotations; a manager adds one choosing where it goes and its source', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('no baseURL');
  const { request } = playwright;
  const api = await apiAs(request, baseURL, accounts.manager);
  const rotation = await createRotation(api, uniqueName('Storefront'), [
    accounts.manager,
    accounts.noah,
  ]);
  const other = await createRotation(api, uniqueName('Warehouse'), [accounts.manager]);
  const existing = uniqueName('Warehouse uptime');
  const made = await api.post('/api/integrations', {
    data: { name: existing, rotationId: other.id },
  });
  expect(made.status(), await made.text()).toBe(201);
  await api.dispose();
  const name = uniqueName('Storefront Prometheus');

  // From the menu: Integrations sits under Rotations for a manager (decision 260).
  await actAs(page, request, baseURL, accounts.manager);
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Integrations', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  // An integration of another rotation is listed with where it goes, its source and its state.
  const before = integrationItem(page, existing);
  await expect(before.getByText('Generic', { exact: true })).toBeVisible();
  await expect(before.getByRole('link', { name: other.name })).toHaveAttribute(
    'href',
    `/rotations/${other.id}`,
  );
  await expect(before.getByText('Not used yet')).toBeVisible();

  // The dialog asks where its incidents go, and its source decides the settings shown.
  await page.getByRole('button', { name: 'Add integration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add integration' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Add integration' }).click();
  await expect(
    dialog.getByText(
      'Choose the rotation or the escalation policy this integration’s incidents follow',
    ),
  ).toBeVisible();
  await chooseOption(page, dialog, 'Incidents go to', rotation.name);
  await chooseOption(page, dialog, 'Source', 'Grafana');
  await expect(dialog.getByLabel('Grouping')).toBeVisible();
  await expect(dialog.getByLabel('Grafana signing secret')).toBeVisible();
  await chooseOption(page, dialog, 'Source', 'Email');
  await expect(dialog.getByLabel('Grouping')).toHaveCount(0);
  await expect(dialog.getByLabel('Grafana signing secret')).toHaveCount(0);
  await chooseOption(page, dialog, 'Source', 'Alertmanager');
  await dialog.getByRole('button', { name: 'Add integration' }).click();
  await expect(toast(page, 'Integration created')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // The key shows once with where Alertmanager sends, and its configurations lead.
  const item = integrationItem(page, name);
  const panel = item.getByRole('region', { name: `Key of ${name}` });
  await expect(panel.getByText('URL (Alertmanager webhook)')).toBeVisible();
  await expect(panel.getByText(/^https?:\/\/\S+\/api\/alerts\/alertmanager$/)).toBeVisible();
  const config = item.getByRole('region', { name: `Configuration of ${name}` });
  await expect(config.getByRole('button', { name: /^Copy / }).first()).toHaveAccessibleName(
    'Copy Alertmanager: webhook receiver',
  );
  await expect(config.getByText('Other formats this key takes')).toBeVisible();
  await expect(item.getByText('Alertmanager', { exact: true })).toBeVisible();
  await expect(item.getByRole('link', { name: rotation.name })).toBeVisible();

  // Its rotation's page lists it too.
  await page.goto(`/rotations/${rotation.id}`);
  await expect(integrationItem(page, name)).toBeVisible();

  // A member reads the integrations of their rotations, with no menu entry and nothing to add.
  await actAs(page, request, baseURL, accounts.noah);
  await page.goto('/integrations');
  await expect(integrationItem(page, name)).toBeVisible();
  await expect(integrationItem(page, existing)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add integration' })).toHaveCount(0);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }),
  ).toHaveCount(0);
});
