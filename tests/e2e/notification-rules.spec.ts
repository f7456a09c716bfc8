import { expect, type Page, test } from '@playwright/test';
import { audit } from './accessibility-support';
import { animationsDone } from './axe';
import { actAs, apiAs } from './rotation-support';
import { accounts } from './support';

/**
 * Personal notification rules (issue 33, decision 251), on the server playwright.config.ts
 * starts: Iris (no phone on file) edits her rules on the profile: the preference's rules shown
 * first, a warning for a rule that cannot reach her and the server's refusal beside it, a rule
 * added, moved and saved with the preview in words, and "Use my notification preference" back.
 */

const high = (page: Page) => page.getByRole('group', { name: /^High urgency/ });

async function choose(page: Page, rule: string, method: string) {
  await high(page)
    .getByRole('combobox', { name: `Method of ${rule}` })
    .click();
  await page.getByRole('option', { name: method, exact: true }).click();
}

test('a person edits their notification rules on the profile and reads them in words', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('no baseURL');
  // Whatever an earlier run left: Iris starts from her preference.
  const api = await apiAs(playwright.request, baseURL, accounts.incidentManager);
  const me = (await (await api.get('/api/auth/user')).json()) as { user: { id: number } };
  await api.delete(`/api/users/${me.user.id}/notification-rules`);

  await actAs(page, playwright.request, baseURL, accounts.incidentManager);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Notification rules', level: 2 })).toBeVisible();
  const preview = page.getByTestId('rules-preview');
  await expect(preview).toHaveText('High urgency: email at once; low urgency: email at once');
  await expect(page.getByText('You have no rules of your own')).toBeVisible();
  const usePreference = page.getByRole('button', { name: 'Use my notification preference' });
  await expect(usePreference).toBeDisabled();

  // SMS without a phone: warned at once, refused by the server beside the rule, nothing saved.
  await choose(page, 'rule 1', 'SMS');
  await expect(high(page)).toContainText(
    'SMS needs a phone number on the profile: this rule is skipped.',
  );
  await expect(page.getByText('No rule for high urgency can reach you now')).toBeVisible();
  await page.getByRole('button', { name: 'Save rules' }).click();
  await expect(high(page).getByRole('alert')).toHaveText('SMS needs a phone number on the profile');

  // Email at once, push after 2 minutes (warned: no device for push), the push rule moved first.
  await choose(page, 'rule 1', 'Email');
  await high(page).getByRole('button', { name: 'Add a rule' }).click();
  await choose(page, 'rule 2', 'Push');
  await high(page).getByLabel('Minutes before rule 2').fill('2');
  await expect(high(page)).toContainText('No device is set up for push: this rule is skipped.');
  await high(page).getByRole('button', { name: 'Move rule 2 up' }).click();
  await expect(high(page).getByRole('combobox', { name: 'Method of rule 1' })).toHaveText('Push');
  await expect(preview).toHaveText(
    'High urgency: email at once, push after 2 minutes; low urgency: email at once',
  );
  // A delay past an hour is refused before it is sent.
  await high(page).getByLabel('Minutes before rule 1').fill('61');
  await page.getByRole('button', { name: 'Save rules' }).click();
  await expect(high(page).getByRole('alert')).toHaveText(
    'The delay is a whole number of minutes from 0 to 60',
  );
  await high(page).getByLabel('Minutes before rule 1').fill('2');
  await animationsDone(page);
  expect(await audit(page, '/profile (notification rules)')).toEqual([]);
  await page.getByRole('button', { name: 'Save rules' }).click();
  await expect(
    page.getByText('Pages now reach you by these rules.', { exact: true }),
  ).toBeVisible();

  await page.reload();
  await expect(preview).toHaveText(
    'High urgency: email at once, push after 2 minutes; low urgency: email at once',
  );
  await expect(page.getByText('You have no rules of your own')).toHaveCount(0);
  const stored = await (await api.get(`/api/users/${me.user.id}/notification-rules`)).json();
  expect(stored).toEqual({
    high: [
      { method: 'push', delayMinutes: 2 },
      { method: 'email', delayMinutes: 0 },
    ],
    low: [{ method: 'email', delayMinutes: 0 }],
    own: true,
    // the browser suite's server has no Twilio: calls are not set up (decision 252)
    voiceReady: false,
  });

  await usePreference.click();
  await expect(page.getByText('You have no rules of your own')).toBeVisible();
  await expect(preview).toHaveText('High urgency: email at once; low urgency: email at once');
  expect((await (await api.get(`/api/users/${me.user.id}/notification-rules`)).json()).own).toBe(
    false,
  );
  await api.dispose();
});

test("an administrator opens someone's notification rules from User Management", async ({
  page,
  playwright,
  baseURL,
}) => {
  if (!baseURL) throw new Error('no baseURL');
  await actAs(page, playwright.request, baseURL, accounts.admin);
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Notification rules of Noah Nakamura' }).click();
  const dialog = page.getByRole('dialog', { name: 'Notification rules of Noah Nakamura' });
  await expect(dialog.getByTestId('rules-preview')).toContainText(
    /^High urgency: .+; low urgency: /,
  );
  await expect(dialog.getByRole('button', { name: 'Save rules' })).toBeEnabled();
  await expect(
    dialog.getByRole('button', { name: /Use their notification preference/ }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
