import type { Page } from '@playwright/test';
import { dayBounds, dayKeyOf } from '../../src/shared/domain/calendar';
import { nextHandoffAt, type ShiftPattern, upcomingShifts } from '../../src/shared/domain/shifts';
import { axeBuilder } from './axe';
import { expect, test } from './fixtures';
import { apiAs, createRotation, userIds } from './rotation-support';
import { accounts, appOrigin } from './support';

/*
 * The calendar in Chromium against the real server with the demo team (DEMO=1): the month grid,
 * moving between months, the rotation filter and legend, the chosen day's details, and the
 * calendar feed links. Olivia (America/Chicago) holds 'Platform Primary' (weekly, Monday 09:00
 * New York = 08:00 Chicago) and is in 'Legacy Payments'; 'Database On-Call' changes daily at
 * 08:00 UTC.
 */

const monthName = (d: Date) =>
  new Intl.DateTimeFormat('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'America/Chicago',
  }).format(d);

function monthAfter(d: Date, delta: number): Date {
  const [year, month] = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    timeZone: 'America/Chicago',
  })
    .format(d)
    .split('-')
    .map(Number);
  return new Date(Date.UTC(year, month - 1 + delta, 15));
}

test('the month grid: Sunday to Saturday, today marked, Prev / Today / Next, filter and legend', async ({
  page,
  login,
}) => {
  await login(accounts.onCall);
  await page.goto('/calendar');
  await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
  const now = new Date();
  const title = page.getByRole('heading', { level: 2, name: monthName(now) });
  await expect(title).toBeVisible();
  const headers = page.getByRole('columnheader');
  await expect(headers).toHaveText(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);

  // Today stands out, and Olivia's own Platform Primary shift is on it.
  const today = page.locator('button[aria-current="date"]');
  await expect(today).toHaveCount(1);
  await expect(today).toHaveAccessibleName(/\(today\)\. .*Platform Primary: .*Olivia Ortiz/);
  const legend = page.getByRole('region', { name: 'Legend' });
  await expect(legend).toContainText('Platform Primary');
  await expect(legend).toContainText('Database On-Call');
  await expect(legend).toContainText('Legacy Payments');
  await expect(legend).toContainText('Your shifts');

  // The coming months are projected: each Monday at 08:00 Chicago time Platform Primary moves on.
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: monthName(monthAfter(now, 1)) }),
  ).toBeVisible();
  await expect(page).toHaveURL(/month=\d{4}-\d{2}/);
  const mondays = page.getByRole('button', { name: /^Monday, / });
  const firstMonday = mondays.nth(1);
  await firstMonday.click();
  const details = page.getByRole('heading', { level: 2 }).filter({ hasText: /^Monday, / });
  await expect(details).toBeVisible();
  const detailsCard = page.locator('[data-slot="card"]').filter({ has: details });
  const platform = detailsCard.getByRole('listitem').filter({ hasText: /^Platform Primary/ });
  await expect(platform).toContainText(/from 8:00 AM/);
  const database = detailsCard.getByRole('listitem').filter({ hasText: /^Database On-Call/ });
  await expect(database).toContainText(/from [23]:00 AM/);

  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: monthName(monthAfter(now, 2)) }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /Platform Primary: / }).first()).toBeVisible();

  await page.getByRole('button', { name: 'Prev', exact: true }).click();
  await page.getByRole('button', { name: 'Prev', exact: true }).click();
  await page.getByRole('button', { name: 'Prev', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: monthName(monthAfter(now, -1)) }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Today', exact: true }).click();
  await expect(title).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 }).filter({ hasText: 'Today' })).toBeVisible();

  // The filter shows one rotation: the legend and the days name only it.
  await page.getByRole('combobox', { name: 'Rotation filter' }).click();
  await page.getByRole('option', { name: 'Database On-Call' }).click();
  await expect(legend).toContainText('Database On-Call');
  await expect(legend).not.toContainText('Platform Primary');
  await expect(today).not.toHaveAccessibleName(/Platform Primary/);
  await expect(today).toHaveAccessibleName(/Database On-Call: /);
  await page.getByRole('combobox', { name: 'Rotation filter' }).click();
  await page.getByRole('option', { name: 'All rotations' }).click();
  await expect(legend).toContainText('Platform Primary');

  const axe = await axeBuilder(page).include('main').analyze();
  expect(
    axe.violations.map(
      (v) =>
        `${v.id}: ${v.help} ${v.nodes
          .slice(0, 3)
          .map((n) => n.failureSummary + n.html)
          .join(' | ')}`,
    ),
  ).toEqual([]);
});

test('calendar feed links: made once, they serve iCalendar; a reset secret stops the old ones', async ({
  page,
  context,
  login,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await login(accounts.noah);
  await page.goto('/calendar');
  const card = page
    .getByRole('heading', { name: 'Calendar feeds' })
    .locator('xpath=ancestor::*[@data-slot="card"][1]');
  await expect(card).toContainText('You have no feed links yet.');
  await card.getByRole('button', { name: 'Create feed links' }).click();
  await expect(page.getByText('Feed links created', { exact: true }).first()).toBeVisible();

  const mine = card.getByRole('textbox', { name: 'Your shifts' });
  await expect(mine).toHaveValue(/\/api\/calendar\/feeds\/[\w-]+\/me\.ics$/);
  const personalUrl = await mine.inputValue();
  await card.getByRole('button', { name: 'Copy your shifts link' }).click();
  await expect(page.getByText('Link copied', { exact: true }).first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(personalUrl);

  const feed = await page.request.get(personalUrl);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toContain('text/calendar');
  const body = await feed.text();
  expect(body).toContain('BEGIN:VCALENDAR');
  expect(body).toContain('BEGIN:VTIMEZONE');
  expect(body).toMatch(/DTSTART;TZID=(America\/New_York|UTC):/);
  expect(body).toMatch(/SUMMARY:On call: (Platform Primary|Database On-Call)/);

  // A rotation's feed, picked from the list.
  await card.getByRole('combobox', { name: 'A rotation’s shifts' }).click();
  await page.getByRole('option', { name: 'Platform Primary' }).click();
  const rotationUrl = await card
    .getByRole('textbox', { name: 'Platform Primary feed link' })
    .inputValue();
  const rotationFeed = await page.request.get(rotationUrl);
  expect(await rotationFeed.text()).toContain('SUMMARY:Platform Primary: Olivia Ortiz');

  // Reset: confirm, new links; the old ones answer 404.
  await page.reload();
  await expect(card).toContainText('Your feed links are active.');
  await card.getByRole('button', { name: 'Reset secret' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Reset your calendar feed links?' });
  await dialog.getByRole('button', { name: 'Reset secret' }).click();
  await expect(dialog).toBeHidden();
  const fresh = await card.getByRole('textbox', { name: 'Your shifts' }).inputValue();
  expect(fresh).not.toBe(personalUrl);
  expect((await page.request.get(personalUrl)).status()).toBe(404);
  expect((await page.request.get(fresh)).status()).toBe(200);
});

test('a coverage request: the covering member accepts it on the calendar, and the window is marked', async ({
  browser,
  page,
  login,
}) => {
  // Olivia holds Platform Primary and asks Noah to cover two hours from an hour from now.
  await login(accounts.onCall);
  const rotations = (await (await page.request.get('/api/rotations')).json()) as {
    id: number;
    name: string;
    members: { userId: number; user: { name: string } }[];
  }[];
  const platform = rotations.find((r) => r.name === 'Platform Primary');
  const noahId = platform?.members.find((m) => m.user.name === accounts.noah.name)?.userId;
  const start = new Date(Date.now() + 60 * 60_000);
  const asked = await page.request.post(`/api/rotations/${platform?.id}/cover`, {
    headers: appOrigin(),
    data: {
      coveringUserId: noahId,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 2 * 60 * 60_000).toISOString(),
      notes: 'School run',
    },
  });
  expect(asked.status()).toBe(201);
  const requestId = (await asked.json()).id as number;

  const noah = await browser.newContext();
  const noahPage = await noah.newPage();
  await login(accounts.noah, { page: noahPage });
  await noahPage.goto('/calendar');
  const card = noahPage
    .getByRole('heading', { name: 'Coverage requests' })
    .locator('xpath=ancestor::*[@data-slot="card"][1]');
  const request = card.getByRole('listitem').filter({ hasText: 'Olivia Ortiz asks you to cover' });
  await expect(request).toContainText('Platform Primary');
  await expect(request).toContainText('Pending');
  await expect(request).toContainText('School run');
  await request.getByRole('button', { name: 'Accept' }).click();
  await expect(noahPage.getByText('Coverage accepted', { exact: true }).first()).toBeVisible();
  await expect(request).toContainText('Accepted');

  // The window's day (in Noah's zone, Tokyo) shows him covering.
  const label = new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'Asia/Tokyo',
  }).format(start);
  const dayButton = noahPage.getByRole('button', { name: new RegExp(`^${label}`) });
  if ((await dayButton.count()) === 0)
    await noahPage.getByRole('button', { name: 'Next', exact: true }).click();
  await noahPage
    .getByRole('button', { name: new RegExp(`^${label}`) })
    .first()
    .click();
  const details = noahPage
    .getByRole('heading', { level: 2, name: new RegExp(`^${label}`) })
    .locator('xpath=ancestor::*[@data-slot="card"][1]');
  const platformDay = details.getByRole('listitem').filter({ hasText: /^Platform Primary/ });
  await expect(
    platformDay
      .getByRole('listitem')
      .filter({ hasText: 'Noah Nakamura' })
      .filter({ hasText: 'Covering Olivia Ortiz' }),
  ).toBeVisible();
  await noah.close();

  // Olivia cancels it again, leaving the demo as it was.
  const cancelled = await page.request.post(`/api/coverage-requests/${requestId}/cancel`, {
    headers: appOrigin(),
  });
  expect((await cancelled.json()).status).toBe('cancelled');
});

const DAY_MS = 86_400_000;

/** dayName returns the day cell's label start, 'Monday, November 2'. */
const dayName = (d: { year: number; month: number; day: number }) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(d.year, d.month - 1, d.day)));

test('the next two months of a fixed rotation, day by day, are what the shared shift functions project', async ({
  page,
  playwright,
  baseURL,
  login,
}) => {
  // A daily rotation handing off in Tokyo about twelve hours from now (far from any handoff
  // window), seen by Olivia in Chicago, who takes the baton first.
  const name = `E2E Calendar ${Date.now().toString(36)}`;
  const viewerZone = 'America/Chicago';
  const [hh, mm] = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Asia/Tokyo',
  })
    .format(new Date(Date.now() + 12 * 3_600_000))
    .split(':');
  const handoffTime = `${hh}:${String(Math.floor(Number(mm) / 5) * 5).padStart(2, '0')}`;
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  const members = [accounts.onCall, accounts.noah, accounts.sam];
  const created = await createRotation(manager, name, members, {
    cadence: 'daily',
    timeZone: 'Asia/Tokyo',
    handoffTime,
  });
  const ids = await userIds(manager);
  await manager.dispose();
  await login(accounts.onCall);
  expect(
    (
      await page.request.post(`/api/rotations/${created.id}/take-oncall`, { headers: appOrigin() })
    ).ok(),
  ).toBe(true);
  const rotation = await (await page.request.get(`/api/rotations/${created.id}`)).json();
  const pattern: ShiftPattern = {
    cadence: 'daily',
    timeZone: 'Asia/Tokyo',
    handoffTime,
    handoffWeekday: 1,
  };
  expect(rotation.nextHandoffTime).toBe(nextHandoffAt(pattern, new Date()).toISOString());

  // What the shared functions say, for each of the next 60 days in Olivia's zone from tomorrow.
  const memberIds = members.map((m) => ids.get(m.email) ?? 0);
  const nameOf = new Map(members.map((m) => [ids.get(m.email), m.name]));
  const oliviaId = ids.get(accounts.onCall.email);
  const [ty, tm, td] = dayKeyOf(new Date(), viewerZone).split('-').map(Number);
  const days = Array.from({ length: 60 }, (_, i) => {
    const d = new Date(Date.UTC(ty, tm - 1, td + 1 + i));
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
  });
  const first = dayBounds(days[0], viewerZone).start;
  const shifts = upcomingShifts(
    {
      pattern,
      memberIds,
      holderId: oliviaId ?? null,
      nextBoundary: new Date(rotation.nextHandoffTime),
    },
    first,
    new Date(first.getTime() + 62 * DAY_MS),
  );
  const expected = new Map(
    days.map((d) => {
      const { start, end } = dayBounds(d, viewerZone);
      const people = shifts
        .filter((s) => s.start < end && s.end > start)
        .map((s) => `${nameOf.get(s.userId)}${s.userId === oliviaId ? ' (you)' : ''}`);
      expect(people.length).toBeGreaterThan(0);
      return [dayName(d), `${dayName(d)}. ${name}: ${people.join(', ')}`];
    }),
  );

  // The browser shows exactly that, month by month, with the rotation filter on.
  const months = [...new Set(days.map((d) => `${d.year}-${String(d.month).padStart(2, '0')}`))];
  for (const month of months) {
    await page.goto(`/calendar?month=${month}&rotation=${created.id}`);
    const [year, m] = month.split('-').map(Number);
    const inMonth = days.filter((d) => d.year === year && d.month === m).map(dayName);
    await expect(page.getByRole('button', { name: expected.get(inMonth[0]) })).toBeVisible();
    const labels = await page
      .getByRole('button', { name: /^(Sun|Mon|Tues|Wednes|Thurs|Fri|Satur)day, / })
      // The day's name comes from its content, less the parts hidden from it (aria-hidden).
      .evaluateAll((els) =>
        els.map((e) =>
          Array.from(e.childNodes)
            .filter((n) => !(n instanceof Element && n.getAttribute('aria-hidden') === 'true'))
            .map((n) => n.textContent ?? '')
            .join(''),
        ),
      );
    const shown = new Map(labels.map((l) => [l.split('.')[0] ?? '', l]));
    expect(inMonth.map((d) => shown.get(d))).toEqual(inMonth.map((d) => expected.get(d)));
  }
  // Olivia's own shifts are marked for her, on the chip as well as in the day's name.
  await expect(page.getByTitle(`${name}: ${accounts.onCall.name} (you)`).first()).toBeVisible();
  await expect(page.getByTitle(`${name}: ${accounts.noah.name}`).first()).toBeVisible();

  // Each legend swatch has the colour of its rotation's chips. One rotation at a time: a day lists
  // four people at most, so with every rotation shown a late one may be cut off.
  const all = (await (await page.request.get('/api/rotations')).json()) as {
    id: number;
    name: string;
  }[];
  const compared: string[] = [];
  for (const rotationName of ['Platform Primary', 'Database On-Call', name]) {
    const id = all.find((r) => r.name === rotationName)?.id;
    await page.goto(`/calendar?month=${months[1]}&rotation=${id}`);
    compared.push(...(await legendMatchesChips(page)));
  }
  expect(compared).toEqual(['Platform Primary', 'Database On-Call', name]);
});

/** legendMatchesChips checks each legend swatch against its rotation's chips; it returns the names checked. */
async function legendMatchesChips(page: Page): Promise<string[]> {
  const legend = page.getByRole('region', { name: 'Legend' });
  await expect(page.getByTitle(/: /).first()).toBeVisible();
  const compared: string[] = [];
  for (const item of await legend.getByRole('listitem').all()) {
    const label = (await item.textContent())?.replace(' (suspended)', '') ?? '';
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const chips = page.getByTitle(new RegExp(`^${escaped}: `));
    if (label === '' || (await chips.count()) === 0) continue;
    const swatch = await item
      .locator('span')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    const border = await chips.first().evaluate((el) => getComputedStyle(el).borderLeftColor);
    expect(border, label).toBe(swatch);
    compared.push(label);
  }
  return compared;
}

test('the next two weeks: a row per rotation with who is on call now, and the filter narrows it', async ({
  page,
  login,
  playwright,
  baseURL,
}) => {
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  const ids = await userIds(manager);
  const name = `E2E Timeline ${Date.now()}`;
  // Made with its members: Noah is on call from this moment (decision 255).
  const res = await manager.post('/api/rotations', {
    data: {
      name,
      cadence: 'daily',
      memberIds: [ids.get(accounts.onCall.email), ids.get(accounts.noah.email)],
      firstOnCallId: ids.get(accounts.noah.email),
    },
  });
  expect(res.status()).toBe(201);
  const rotation = (await res.json()) as { id: number };

  await login(accounts.onCall);
  await page.goto('/calendar');
  const timeline = page.getByRole('region', { name: 'Timeline of the next two weeks' });
  await expect(timeline).toBeVisible();
  const row = timeline.getByRole('list', { name, exact: true });
  await expect(
    row.getByRole('img', { name: new RegExp(`^${accounts.noah.name}, .*\\(now\\)$`) }),
  ).toBeVisible();
  await expect(timeline.getByRole('list', { name: 'Platform Primary', exact: true })).toBeVisible();

  await page.goto(`/calendar?rotation=${rotation.id}`);
  await expect(timeline.getByRole('list', { name, exact: true })).toBeVisible();
  await expect(timeline.getByRole('list', { name: 'Platform Primary', exact: true })).toHaveCount(
    0,
  );
  const found = await axeBuilder(page).include('main').analyze();
  expect(found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual(
    [],
  );
});
