import { expect, test } from '@playwright/test';
import {
  type Account,
  actAs,
  apiAs,
  chooseOption,
  raiseIncident,
  toast,
  uniqueName,
} from './rotation-support';
import { accounts } from './support';

/**
 * Incidents (issue 16, decision 206), on the server playwright.config.ts starts (demo mode: what
 * Baton sends lands in the demo inbox and counts as sent). An incident manager raises an incident
 * on a rotation from /incidents, watches its timeline fill (raised, the first step reached, the
 * email sent), and the holder acknowledges it from the dashboard's "Incidents for you". A
 * responder reassigns one to a person with a reason.
 */

const ROTATION = 'Platform Primary';

/** holderOf returns the demo account that holds the rotation's baton now. */
async function holderOf(
  request: Parameters<typeof apiAs>[0],
  baseURL: string,
  rotationName: string,
): Promise<Account> {
  const api = await apiAs(request, baseURL, accounts.admin);
  try {
    const rotations = (await (await api.get('/api/rotations')).json()) as {
      name: string;
      currentOnCallUserId: number | null;
      members: { userId: number; user: { name: string } }[];
    }[];
    const rotation = rotations.find((r) => r.name === rotationName);
    const holder = rotation?.members.find((m) => m.userId === rotation.currentOnCallUserId);
    const account = Object.values(accounts).find((a) => a.name === holder?.user.name);
    expect(account, `the demo account holding ${rotationName}`).toBeTruthy();
    return account as Account;
  } finally {
    await api.dispose();
  }
}

test('an incident manager raises an incident, its timeline fills, the holder acknowledges it from the dashboard', async ({
  page,
  playwright,
  baseURL,
}) => {
  const { request } = playwright;
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  const holder = await holderOf(request, baseURL, ROTATION);
  const title = uniqueName('Checkout API returning 500s');

  // Iris, an incident manager, finds Incidents in the main menu and raises one.
  await actAs(page, request, baseURL, accounts.incidentManager);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Incidents', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Incidents', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Raise incident' }).click();
  const dialog = page.getByRole('dialog', { name: 'Raise incident' });

  // Sent empty, the form says what is missing next to each field, in words.
  await dialog.getByRole('button', { name: 'Raise incident' }).click();
  await expect(dialog.getByText('Enter a title', { exact: true })).toBeVisible();
  await expect(
    dialog.getByText('Choose the rotation or the escalation policy this incident follows'),
  ).toBeVisible();

  await dialog.getByLabel('Title').fill(title);
  await chooseOption(page, dialog, 'Severity', 'P1 · Critical');
  await chooseOption(page, dialog, 'Rotation or escalation policy', ROTATION);
  await dialog
    .getByLabel('Description')
    .fill('Since 14:05 a third of checkouts fail.\nAfter the deploy.');
  await dialog.getByLabel('Impact').fill('About 30% of orders.');
  await dialog.getByLabel('Troubleshooting steps').fill('Restarted one pod: no change.');
  await dialog.getByRole('button', { name: 'Raise incident' }).click();
  await expect(toast(page, 'Incident raised')).toBeVisible();

  // The incident's page: its title, badges, fields and where it is on its policy.
  await expect(page).toHaveURL(/\/incidents\/\d+$/);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('P1 · Critical').first()).toBeVisible();
  await expect(page.getByText('Triggered', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('About 30% of orders.')).toBeVisible();
  await expect(page.getByRole('link', { name: ROTATION, exact: true })).toBeVisible();
  await expect(page.getByText(/^Step 1 of \d+/)).toBeVisible();

  // The timeline fills on the server's clock: raised, the first step reached, the email sent.
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('Raised by Iris Incident', { exact: true })).toBeVisible();
  await expect(timeline.getByText(`Step 1 reached: ${holder.name} (holder)`)).toBeVisible({
    timeout: 30_000,
  });
  await expect(timeline.getByText(`Email to ${holder.name} sent`)).toBeVisible({
    timeout: 45_000,
  });

  // The list shows it among the open incidents.
  await page.getByRole('link', { name: 'Incidents', exact: true }).first().click();
  await expect(
    page.getByRole('list', { name: 'Incidents' }).getByRole('link', { name: title }),
  ).toBeVisible();

  // The holder acknowledges it from the dashboard.
  await actAs(page, request, baseURL, holder);
  const card = page.getByRole('list', { name: 'Incidents for you' });
  const item = card.getByRole('listitem').filter({ hasText: title });
  await expect(item).toBeVisible();
  await item.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(toast(page, 'Incident acknowledged')).toBeVisible();
  await expect(item.getByText('Acknowledged', { exact: true })).toBeVisible();
  await expect(item.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);

  // Its page says so, and the timeline records who acknowledged it.
  await item.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('Acknowledged', { exact: true }).first()).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Timeline' }).getByText(`Acknowledged by ${holder.name}`),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);

  // A note is added under the timeline with its author.
  await page.getByLabel('Add note').fill('Rolled back the deploy; errors gone.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(
    page.getByRole('list', { name: 'Timeline' }).getByText(`Note by ${holder.name}`),
  ).toBeVisible();
  await expect(page.getByText('Rolled back the deploy; errors gone.')).toBeVisible();
});

test('a responder reassigns an incident: the form asks for a person, who is notified, and the timeline says why', async ({
  page,
  playwright,
  baseURL,
}) => {
  const { request } = playwright;
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  const holder = await holderOf(request, baseURL, ROTATION);
  const chosen = holder.name === accounts.sam.name ? accounts.noah : accounts.sam;
  const title = uniqueName('Replica lag over 5 minutes');
  const id = await raiseIncident(request, baseURL, accounts.incidentManager, ROTATION, title);

  await actAs(page, request, baseURL, accounts.incidentManager);
  await page.goto(`/incidents/${id}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Reassign', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Reassign incident' });

  // Sent without a person, the form says so next to the field.
  await dialog.getByRole('button', { name: 'Reassign', exact: true }).click();
  await expect(
    dialog.getByText('Choose the person to reassign this incident to', { exact: true }),
  ).toBeVisible();

  await chooseOption(page, dialog, 'Person', chosen.name);
  await dialog.getByLabel('Reason (optional)').fill('Knows the replication set-up.');
  await dialog.getByRole('button', { name: 'Reassign', exact: true }).click();
  await expect(toast(page, 'Incident reassigned')).toBeVisible();
  await expect(toast(page, `${title} is with ${chosen.name}.`)).toBeVisible();
  await expect(dialog).toBeHidden();

  // The timeline names who, by whom and why; the person chosen is told by email.
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(
    timeline.getByText(
      `Reassigned to ${chosen.name} by Iris Incident: Knows the replication set-up.`,
      { exact: true },
    ),
  ).toBeVisible();
  await expect(timeline.getByText(`Email to ${chosen.name} sent`)).toBeVisible({
    timeout: 45_000,
  });

  // Opened again, the form is empty, and the list says who has it now.
  await page.getByRole('button', { name: 'Reassign', exact: true }).click();
  await expect(dialog.getByLabel('Reason (optional)')).toHaveValue('');
  await dialog.getByLabel('Person').click();
  await expect(
    page.getByRole('option', { name: `${chosen.name} (has it now)`, exact: true }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
});
