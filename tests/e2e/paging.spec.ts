import type { Browser, Page } from '@playwright/test';
import { type BatonServer, freePorts, startBaton } from '../setup/baton-process';
import { startSmtpServer } from '../setup/smtp-server';
import { axeBuilder } from './axe';
import { expect, openDashboard, test } from './fixtures';
import { accounts, E2E_PASSWORD, ownOrigin } from './support';

/**
 * A manager pages the holder; the email arrives over SMTP; its link acknowledges the page without
 * signing in; the page history shows it. This spec runs its own Baton (the built app) with
 * SMTP_URL pointing at a loopback SMTP server it starts, and the outbox worker every second.
 */

/** The URL of this spec's own Baton, once started. */
let BASE = '';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let baton: BatonServer | undefined;

test.beforeAll(async () => {
  // A new database and the demo seed: startBaton allows two minutes, more than a hook's default.
  test.setTimeout(150_000);
  smtp = await startSmtpServer();
  baton = await startBaton({
    port: (await freePorts(1))[0],
    env: {
      DEMO: '1',
      LOCAL_LOGIN_PASSWORD: E2E_PASSWORD,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Baton <baton@example.com>',
      OUTBOX_INTERVAL_SECONDS: '1',
    },
  });
  BASE = baton.url;
});

test.afterAll(async () => {
  await baton?.stop();
  await smtp?.close();
});

/** Quoted-printable bodies: soft line breaks joined, escapes decoded (Baton's mail is ASCII). */
const decodeMail = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

async function mailTo(address: string, subject: RegExp) {
  let found = '';
  await expect
    .poll(
      () => {
        const mail = smtp.received
          .filter((m) => m.to.includes(address))
          .map((m) => decodeMail(m.raw))
          .find((raw) => subject.test(raw));
        found = mail ?? '';
        return Boolean(mail);
      },
      { timeout: 20_000, message: `an email to ${address} matching ${subject}` },
    )
    .toBe(true);
  return found;
}

async function anonymousPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test('a manager pages the holder; the email’s link acknowledges the page; the history shows it', async ({
  page,
  browser,
  login,
}) => {
  test.setTimeout(90_000);
  const message = `Checkout errors above 5% (${Date.now()})`;

  // Morgan manages Platform Primary, where Olivia holds the baton.
  await login(accounts.manager, { origin: BASE });
  await page.goto(`${BASE}/rotations`);
  await page.getByText('Platform Primary', { exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Platform Primary' })).toBeVisible();
  await page.getByRole('button', { name: 'Page On-Call' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Message').fill(message);
  await dialog.getByRole('button', { name: 'Send page' }).click();
  await expect(page.getByText('Page alert sent', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Page alert sent to Olivia Ortiz.').first()).toBeVisible();
  // The rotation's page history, on the same screen, shows the new page without a reload.
  await expect(
    page
      .getByRole('list', { name: 'Page history', exact: true })
      .getByRole('listitem')
      .filter({ hasText: message }),
  ).toBeVisible();
  await expect(page.getByText('No pages sent for this rotation yet')).toHaveCount(0);

  // The email reaches Olivia through the SMTP server, with the message and a link back.
  const mail = await mailTo(
    accounts.onCall.email,
    /Subject: Page \(high urgency\): Platform Primary/,
  );
  expect(mail).toContain('Morgan Manager paged you as the on-call person for Platform Primary.');
  expect(mail).toContain(message);
  const ackLink = new RegExp(`${BASE}/pages/ack/[0-9]+\\.[A-Za-z0-9_-]{43}`).exec(mail)?.[0];
  expect(ackLink, 'acknowledgement link in the email').toBeTruthy();
  // The way back to Baton is the incident the page is (decision 261).
  const incidentLink = new RegExp(`${BASE}/incidents/\\d+`).exec(mail)?.[0];
  expect(incidentLink, 'link back to Baton in the email').toBeTruthy();
  const rotationId = /\/rotations\/(\d+)/.exec(page.url())?.[1];
  const historyLink = `${BASE}/pages?rotation=${rotationId}`;

  // Olivia opens the link without signing in; only pressing the button acknowledges.
  const olivia = await anonymousPage(browser);
  await olivia.page.goto(ackLink as string);
  await expect(
    olivia.page.getByRole('heading', { name: 'Page for Platform Primary' }),
  ).toBeVisible();
  await expect(olivia.page.getByText(message)).toBeVisible();
  await olivia.page.getByRole('button', { name: 'Acknowledge page' }).click();
  await expect(olivia.page.getByRole('heading', { name: 'Page acknowledged' })).toBeVisible();
  await expect(olivia.page.getByRole('button', { name: 'Acknowledge page' })).toHaveCount(0);
  // The link works once: opened again, it says so.
  await olivia.page.reload();
  await expect(olivia.page.getByRole('heading', { name: 'Page acknowledged' })).toBeVisible();
  await expect(olivia.page.getByText('This link cannot be used again.')).toBeVisible();
  await olivia.context.close();

  // Morgan is told by email, and the page history shows the acknowledgement.
  await mailTo(accounts.manager.email, /Subject: Olivia Ortiz acknowledged your page for Platform/);
  await page.goto(historyLink as string);
  const history = page.getByRole('list', { name: 'Page history: Platform Primary' });
  const entry = history.getByRole('listitem').filter({ hasText: message });
  await expect(entry).toBeVisible();
  await expect(entry.getByText('Acknowledged', { exact: true })).toBeVisible();
  await expect(entry.getByText('Morgan Manager', { exact: true })).toBeVisible();
  await expect(entry.getByText('Olivia Ortiz', { exact: true })).toBeVisible();
  await expect(entry.getByText(/Acknowledged by Olivia Ortiz from the link/)).toBeVisible();
  // The email's incident link opens the incident, acknowledged.
  await page.goto(incidentLink as string);
  await expect(
    page
      .getByRole('list', { name: 'Timeline' })
      .getByText('Acknowledged by Olivia Ortiz from the email’s link'),
  ).toBeVisible();
});

test('the outbox view shows administrators what was sent', async ({ page, login }) => {
  await login(accounts.admin, { origin: BASE });
  // Its own data: a page to Database On-Call, whose holder is Sam.
  const rotations = (await (await page.request.get(`${BASE}/api/rotations`)).json()) as {
    id: number;
    name: string;
  }[];
  const database = rotations.find((r) => r.name === 'Database On-Call');
  const sent = await page.request.post(`${BASE}/api/rotations/${database?.id}/page`, {
    headers: ownOrigin(BASE),
    data: { message: 'Replica lag on db-3', urgency: 'medium' },
  });
  expect(sent.status()).toBe(201);
  await mailTo(accounts.sam.email, /Subject: Page \(medium urgency\): Database On-Call/);

  await openDashboard(page, BASE);
  await page.getByRole('link', { name: 'Notifications', exact: true }).click();
  await expect(page).toHaveURL(`${BASE}/admin/notifications`);
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await page.getByRole('tab', { name: 'Sent' }).click();
  const row = page.getByRole('row').filter({ hasText: accounts.sam.email }).first();
  await expect(row).toBeVisible();
  await expect(
    row.getByText('Page (medium urgency): Database On-Call: Replica lag on db-3'),
  ).toBeVisible();
  await expect(row.getByText('sent', { exact: true })).toBeVisible();
});

test('the recipient acknowledges in the app, and escalates another page with a reason', async ({
  page,
  browser,
  login,
}) => {
  // Its own data: Morgan pages Platform Primary twice through the API.
  const morgan = await browser.newContext();
  const morganPage = await morgan.newPage();
  await login(accounts.manager, { page: morganPage, origin: BASE });
  const rotations = (await (await morganPage.request.get(`${BASE}/api/rotations`)).json()) as {
    id: number;
    name: string;
  }[];
  const platform = rotations.find((r) => r.name === 'Platform Primary');
  const stamp = Date.now();
  for (const message of [`Ack me ${stamp}`, `Escalate me ${stamp}`]) {
    const res = await morganPage.request.post(`${BASE}/api/rotations/${platform?.id}/page`, {
      headers: ownOrigin(BASE),
      data: { message },
    });
    expect(res.status()).toBe(201);
  }
  await morgan.close();

  await login(accounts.onCall, { origin: BASE });
  await page.goto(`${BASE}/pages`);
  const mine = page.getByRole('list', { name: 'Pages for me' });
  const ackItem = mine.getByRole('listitem').filter({ hasText: `Ack me ${stamp}` });
  await ackItem.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(page.getByText('Page acknowledged', { exact: true }).first()).toBeVisible();
  await expect(ackItem.getByText('Acknowledged', { exact: true })).toBeVisible();
  await expect(ackItem.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);

  const escItem = mine.getByRole('listitem').filter({ hasText: `Escalate me ${stamp}` });
  await escItem.getByRole('button', { name: 'Escalate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Escalate page' });
  await dialog.getByRole('button', { name: 'Escalate' }).click();
  await expect(dialog.getByText('Please enter a reason')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Boarding a flight');
  await dialog.getByRole('button', { name: 'Escalate' }).click();
  await expect(page.getByText('The page went to Noah Nakamura.').first()).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // No longer Olivia's: it leaves her list, and the history tells the story.
  await expect(escItem).toHaveCount(0);
  const history = page.getByRole('list', { name: 'Page history: Platform Primary' });
  const entry = history.getByRole('listitem').filter({ hasText: `Escalate me ${stamp}` });
  await expect(entry.getByText('Escalated', { exact: true })).toBeVisible();
  await expect(
    entry.getByText(
      /Escalated from Olivia Ortiz to Noah Nakamura by Olivia Ortiz: Boarding a flight/,
    ),
  ).toBeVisible();
  await mailTo(accounts.noah.email, /Subject: Escalated page \(high urgency\): Platform Primary/);
});

test('an unknown acknowledgement link says so, without signing in', async ({ browser }) => {
  const visitor = await anonymousPage(browser);
  await visitor.page.goto(`${BASE}/pages/ack/1.${'A'.repeat(43)}`);
  await expect(visitor.page.getByRole('heading', { name: 'Link not valid' })).toBeVisible();
  await expect(visitor.page).toHaveURL(/\/pages\/ack\//);
  await visitor.context.close();
});

async function seriousViolations(page: Page) {
  const results = await axeBuilder(page)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

for (const dark of [false, true]) {
  test(`the paging screens have no serious or critical axe violations (${dark ? 'dark' : 'light'})`, async ({
    page,
    browser,
    login,
  }) => {
    test.setTimeout(60_000);
    await page.addInitScript((value) => localStorage.setItem('darkMode', value), String(dark));
    await login(accounts.admin, { origin: BASE });
    const rotations = (await (await page.request.get(`${BASE}/api/rotations`)).json()) as {
      id: number;
      name: string;
    }[];
    const platform = rotations.find((r) => r.name === 'Platform Primary');
    const message = `Axe check ${dark} ${Date.now()}`;
    await page.request.post(`${BASE}/api/rotations/${platform?.id}/page`, {
      headers: ownOrigin(BASE),
      data: { message },
    });
    const mail = await mailTo(accounts.onCall.email, new RegExp(message));
    const ackLink = new RegExp(`${BASE}/pages/ack/[0-9]+\\.[A-Za-z0-9_-]{43}`).exec(mail)?.[0];

    for (const route of [`/pages?rotation=${platform?.id}`, '/admin/notifications']) {
      await page.goto(`${BASE}${route}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText(message).first()).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      expect(await seriousViolations(page), route).toEqual([]);
    }
    const visitor = await browser.newContext();
    const anonymous = await visitor.newPage();
    await anonymous.addInitScript((value) => localStorage.setItem('darkMode', value), String(dark));
    await anonymous.goto(ackLink as string);
    await expect(anonymous.getByRole('button', { name: 'Acknowledge page' })).toBeVisible();
    expect(await seriousViolations(anonymous), 'acknowledgement page').toEqual([]);
    await visitor.close();
  });
}

test('a page that cannot be delivered: the history says so, the pager is told, administrators see a banner', async ({
  page,
  login,
}) => {
  test.setTimeout(60_000);
  // Sam's mail server refuses everything (a permanent SMTP 550): the page to Sam fails for good.
  const accept = smtp.refuse(accounts.sam.email, 550, '5.2.1 Mailbox disabled');
  try {
    await login(accounts.admin, { origin: BASE });
    await openDashboard(page, BASE);
    // This server has SMTP and no SMS: the dashboard tells administrators what is missing.
    const setup = page
      .getByRole('alert')
      .filter({ hasText: 'A notification channel is not configured' });
    await expect(setup).toContainText(
      'SMS is not configured on this server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM).',
    );
    const rotations = (await (await page.request.get(`${BASE}/api/rotations`)).json()) as {
      id: number;
      name: string;
    }[];
    const database = rotations.find((r) => r.name === 'Database On-Call');
    const message = `Disk full on db-9 (${Date.now()})`;
    const sent = await page.request.post(`${BASE}/api/rotations/${database?.id}/page`, {
      data: { message, urgency: 'high' },
      headers: { origin: BASE },
    });
    expect(sent.status()).toBe(201);

    // The pager (here an administrator) is told on the dashboard, without a reload.
    const notice = page.getByRole('alert').filter({ hasText: 'A page you sent was not delivered' });
    await expect(notice).toBeVisible({ timeout: 30_000 });
    await expect(notice).toContainText(
      'Not delivered to Sam Sullivan by email: 550 5.2.1 Mailbox disabled.',
    );
    // Administrators see which channel is failing, on every screen. The banner reads the
    // channels' state when a screen loads and every 30 s after: a reload shows it now, where
    // waiting for its next poll took up to 30 s of a loaded machine's minute.
    await page.reload();
    await expect(notice).toBeVisible();
    const banner = page.getByRole('alert').filter({ hasText: 'Notifications are failing' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('Email: 1 notification failed in the last hour');

    // The page's history says who was not reached, by which channel and why.
    await notice.getByRole('link', { name: 'Database On-Call' }).click();
    await expect(page).toHaveURL(`${BASE}/pages?rotation=${database?.id}`);
    const history = page.getByRole('list', { name: 'Page history: Database On-Call' });
    const entry = history.getByRole('listitem').filter({ hasText: message });
    await expect(
      entry.getByText('Not delivered to Sam Sullivan by email: 550 5.2.1 Mailbox disabled.'),
    ).toBeVisible();
    await expect(banner).toBeVisible();
    // The alerts and the failure line pass the accessibility checks, light and dark.
    for (const dark of [false, true]) {
      await page.evaluate((value) => localStorage.setItem('darkMode', value), String(dark));
      await page.reload();
      await expect(notice).toBeVisible();
      await expect(banner).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      expect(await seriousViolations(page), dark ? 'dark' : 'light').toEqual([]);
    }
  } finally {
    accept();
  }
});
