import { expect, test } from '@playwright/test';
import { audit } from './accessibility-support';
import { animationsDone } from './axe';
import { actAs, apiAs, userIds } from './rotation-support';
import { accounts } from './support';

/**
 * An administrator reaches someone else from their page (issue 33, decision 265), on the server
 * playwright.config.ts starts (demo mode: email without SMTP goes to the demo inbox, so a test is
 * really sent through the outbox's channel): on /people/{id} Avery changes Sam's notification
 * rules and working hours and sends Sam a test email, and each outcome shows and is what the
 * server stored; a manager on the same page sees none of it.
 */

const DEFAULT_HOURS = {
  days: [1, 2, 3, 4, 5],
  start: '09:00',
  end: '17:00',
  holdLowUrgency: false,
};

test("an administrator changes someone's rules and working hours and sends them a test", async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('no baseURL');
  const api = await apiAs(playwright.request, baseURL, accounts.admin);
  const samId = (await userIds(api)).get(accounts.sam.email);
  if (!samId) throw new Error('no Sam in the demo team');
  // Whatever an earlier run left: Sam starts from the preference and the default hours.
  await api.delete(`/api/users/${samId}/notification-rules`);
  await api.put(`/api/users/${samId}/working-hours`, { data: DEFAULT_HOURS });

  await actAs(page, playwright.request, baseURL, accounts.admin);
  await page.goto(`/people/${samId}`);
  const reach = page.getByRole('region', { name: 'How Baton reaches Sam Sullivan' });
  await expect(reach.getByRole('heading', { name: 'Notification rules', level: 2 })).toBeVisible();

  // Rules: email at once, then email again after 5 minutes.
  const preview = reach.getByTestId('rules-preview');
  await expect(preview).toHaveText('High urgency: email at once; low urgency: email at once');
  await expect(reach.getByText('Sam Sullivan has no rules of their own')).toBeVisible();
  const high = reach.getByRole('group', { name: /^High urgency/ });
  await high.getByRole('button', { name: 'Add a rule' }).click();
  await high.getByLabel('Minutes before rule 2').fill('5');
  await expect(preview).toHaveText(
    'High urgency: email at once, email after 5 minutes; low urgency: email at once',
  );
  await reach.getByRole('button', { name: 'Save rules' }).click();
  await expect(
    page.getByText('Pages now reach Sam Sullivan by these rules.', { exact: true }),
  ).toBeVisible();

  // Working hours: Saturday too, low urgency held, in Sam's words.
  const hours = reach.locator('form', {
    has: page.getByRole('group', { name: 'Working days' }),
  });
  await hours.getByRole('button', { name: 'Saturday' }).click();
  await hours
    .getByRole('checkbox', { name: 'Hold low-urgency pages until their working hours begin' })
    .check();
  await expect(hours).toContainText(
    'Low urgency reaches Sam Sullivan Monday to Saturday, 09:00–17:00; outside them it waits.',
  );
  await hours.getByRole('button', { name: 'Save working hours' }).click();
  await expect(
    page.getByText('Low-urgency pages outside them wait until they begin.', { exact: true }),
  ).toBeVisible();

  // A test email to Sam: its outcome beside the button.
  await expect(
    reach.getByRole('heading', { name: 'Test how Baton reaches Sam Sullivan' }),
  ).toBeVisible();
  const sendEmail = page.getByRole('button', { name: 'Send a test email' });
  await sendEmail.click();
  await expect(
    reach.getByRole('listitem').filter({ has: sendEmail }).getByRole('status'),
  ).toHaveText('Test email sent: ask Sam Sullivan whether it arrived.');
  await animationsDone(page);
  expect(await audit(page, '/people/{id} (how Baton reaches them)')).toEqual([]);

  // What the server stored, read again after a reload.
  await page.reload();
  await expect(preview).toHaveText(
    'High urgency: email at once, email after 5 minutes; low urgency: email at once',
  );
  await expect(
    reach.getByRole('group', { name: 'Working days' }).getByRole('button', { name: 'Saturday' }),
  ).toHaveAttribute('aria-pressed', 'true');
  expect(await (await api.get(`/api/users/${samId}/notification-rules`)).json()).toMatchObject({
    high: [
      { method: 'email', delayMinutes: 0 },
      { method: 'email', delayMinutes: 5 },
    ],
    own: true,
  });
  expect(await (await api.get(`/api/users/${samId}/working-hours`)).json()).toMatchObject({
    days: [1, 2, 3, 4, 5, 6],
    holdLowUrgency: true,
    own: true,
  });

  // A manager on Sam's page sees none of it (the API refuses them too: reach-the-person.test.ts).
  await actAs(page, playwright.request, baseURL, accounts.manager);
  await page.goto(`/people/${samId}`);
  await expect(page.getByRole('heading', { name: 'Sam Sullivan', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Contact' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'How Baton reaches Sam Sullivan' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send a test email' })).toHaveCount(0);

  await api.delete(`/api/users/${samId}/notification-rules`);
  await api.put(`/api/users/${samId}/working-hours`, { data: DEFAULT_HOURS });
  await api.dispose();
});
