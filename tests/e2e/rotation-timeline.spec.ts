import type { APIRequestContext } from '@playwright/test';
import type { Rotation } from '../../src/shared/contracts/rotations';
import { axeBuilder } from './axe';
import { expect, openDashboard, test } from './fixtures';
import { apiAs, uniqueName, userIds } from './rotation-support';
import { accounts } from './support';

/*
 * Layered rotations on screen (decision 249) against the real server, whose clock is the test's:
 * the rotation page's two-week timeline of the follow-the-sun rotation (a row per layer,
 * the result with "now" naming whoever the API says is on call), its pattern in words, and a
 * rotation with no layer on duty now saying "No one on call now" and who comes next on the
 * dashboard card.
 */

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

async function postRotation(api: APIRequestContext, data: Record<string, unknown>) {
  const res = await api.post('/api/rotations', { data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Rotation;
}

async function readRotation(api: APIRequestContext, id: number) {
  const res = await api.get(`/api/rotations/${id}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as Rotation;
}

/** londonWeekday returns today's weekday in London, 0 = Sunday. */
function londonWeekday(at: Date): number {
  const name = new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'Europe/London' })
    .format(at)
    .slice(0, 3);
  return ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(name);
}

test('the follow-the-sun rotation: a row per layer, the result under now, the pattern', async ({
  page,
  playwright,
  baseURL,
  login,
}) => {
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const ids = await userIds(admin);
  const id = (who: { email: string }) => ids.get(who.email) ?? 0;
  const name = uniqueName('E2E Follow the sun');
  const window = (start: string, end: string) => [{ days: EVERY_DAY, start, end }];
  // The first handoff two days from today (in London), so each layer's first turn holds a whole
  // window of its own whatever the day and hour the test runs (a turn begun on a Sunday evening
  // and handed off on Monday at 07:00 would hold none of London's).
  const handoffWeekday = (londonWeekday(new Date()) + 2) % 7;
  const shift = { cadence: 'weekly', handoffTime: '07:00', handoffWeekday };
  const london = [accounts.onCall, accounts.noah, accounts.sam];
  const sydney = [accounts.priya, accounts.manager, accounts.onCall];
  const made = await postRotation(admin, {
    name,
    description: null,
    type: 'fixed',
    timeZone: 'Europe/London',
    ...shift,
    layers: [
      {
        name: 'London',
        memberIds: london.map(id),
        ...shift,
        activeWindows: window('07:00', '19:00'),
      },
      {
        name: 'Sydney',
        memberIds: sydney.map(id),
        ...shift,
        activeWindows: window('19:00', '07:00'),
      },
    ],
  });
  const rotation = await readRotation(admin, made.id);
  await admin.dispose();
  const pattern = 'Follow the sun: London 07:00–19:00, Sydney 19:00–07:00';
  expect(rotation.pattern).toBe(pattern);
  expect(rotation.currentOnCall).not.toBeNull();

  await login(accounts.onCall);
  await page.goto(`/rotations/${made.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  // The header says the pattern (the summary of a rotation without a description), and Settings.
  await expect(page.getByText(pattern, { exact: true }).first()).toBeVisible();
  const settings = page
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('heading', { name: 'Settings' }) });
  await expect(settings.getByRole('definition').filter({ hasText: pattern })).toBeVisible();
  await expect(
    settings.getByRole('definition').filter({ hasText: 'London, Sydney' }),
  ).toBeVisible();

  const timeline = page.getByRole('region', { name: 'Timeline of the next two weeks' });
  await expect(timeline).toBeVisible();
  const londonRow = timeline.getByRole('list', { name: 'London', exact: true });
  const sydneyRow = timeline.getByRole('list', { name: 'Sydney', exact: true });
  const result = timeline.getByRole('list', { name: 'On call', exact: true });
  for (const [row, people] of [
    [londonRow, london],
    [sydneyRow, sydney],
  ] as const) {
    const bars = row.getByRole('img');
    // A window a day for two weeks, less today's before the layers began (now).
    expect(await bars.count()).toBeGreaterThanOrEqual(13);
    for (const label of await bars.evaluateAll((els) => els.map((e) => e.ariaLabel ?? ''))) {
      expect(people.map((p) => p.name)).toContain(label.split(', ')[0]);
    }
  }
  // The first turn of each layer is its first member's, this week.
  await expect(londonRow.getByRole('img', { name: /^Olivia Ortiz, / }).first()).toBeVisible();
  await expect(sydneyRow.getByRole('img', { name: /^Priya Patel, / }).first()).toBeVisible();

  // Under now, the result names whoever the API says is on call, as does the layer on duty.
  const holder = rotation.currentOnCall?.name ?? '';
  const now = result.getByRole('img', { name: /\(now\)$/ });
  await expect(now).toHaveCount(1);
  await expect(now).toHaveAccessibleName(new RegExp(`^${holder}, .+ – .+ \\(now\\)$`));
  const onDuty = londonRow.or(sydneyRow).getByRole('img', { name: /\(now\)$/ });
  await expect(onDuty).toHaveAccessibleName(new RegExp(`^${holder}, `));

  const card = page
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('heading', { name: 'Next two weeks' }) });
  await expect(card.getByText('Nobody on call', { exact: true })).toBeVisible();
  await expect(card.getByText('Cover', { exact: true })).toBeVisible();

  // The timeline scrolls inside its card: the page itself fits a 390 px screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(timeline).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);

  const axe = await axeBuilder(page).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual(
    [],
  );
});

test('a rotation with no layer on duty now: "No one on call now" and who comes next', async ({
  page,
  playwright,
  baseURL,
  login,
}) => {
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const ids = await userIds(admin);
  // Weekends, unless today or tomorrow is one (in London): then Tuesdays and Wednesdays.
  const today = londonWeekday(new Date());
  const days = [5, 6, 0].includes(today) ? [2, 3] : [6, 0];
  const name = uniqueName(days[0] === 6 ? 'E2E Weekends' : 'E2E Midweek');
  const shift = { cadence: 'weekly', handoffTime: '00:00', handoffWeekday: days[0] };
  const made = await postRotation(admin, {
    name,
    type: 'fixed',
    timeZone: 'Europe/London',
    ...shift,
    layers: [
      {
        name: 'Off hours',
        memberIds: [accounts.onCall, accounts.sam].map((who) => ids.get(who.email) ?? 0),
        ...shift,
        activeWindows: [{ days, start: '00:00', end: '00:00' }],
      },
    ],
  });
  const rotation = await readRotation(admin, made.id);
  await admin.dispose();
  expect(rotation.currentOnCall).toBeNull();
  const next = rotation.nextOnCall?.name ?? '';
  expect([accounts.onCall.name, accounts.sam.name]).toContain(next);
  expect(rotation.nextHandoffTime).not.toBeNull();

  await login(accounts.onCall);
  await openDashboard(page);
  const card = page
    .getByRole('region', { name: 'Your Rotations' })
    .locator('[data-slot=card]')
    .filter({ hasText: name });
  await expect(card.getByText('No one on call now', { exact: true })).toBeVisible();
  await expect(card.getByText(new RegExp(`^${next} from \\w+ \\d+, \\d{4} at `))).toBeVisible();
  await expect(card.getByText(rotation.pattern, { exact: true })).toBeVisible();
  await expect(card.getByText('No one assigned', { exact: true })).toHaveCount(0);
  // Nobody holds the baton: a member may still take it, as the specification says.
  await expect(card.getByRole('button', { name: 'Take On-Call' })).toBeVisible();

  await card.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const current = page
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('heading', { name: 'Current On-Call' }) });
  await expect(current.getByText('No one on call now', { exact: true })).toBeVisible();
  await expect(current.getByText(new RegExp(`^${next} from `))).toBeVisible();
  const nowBar = page
    .getByRole('list', { name: 'On call', exact: true })
    .getByRole('img', { name: /\(now\)$/ });
  await expect(nowBar).toHaveAccessibleName(/^Nobody on call, /);
});
