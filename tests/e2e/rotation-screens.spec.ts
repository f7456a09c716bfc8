import { expect, type Locator, type Page, type Route, test } from '@playwright/test';
import {
  type Handoff,
  type Rotation,
  RotationSchema,
  type ScheduleEntry,
} from '../../src/shared/contracts/rotations';
import {
  actAs,
  apiAs,
  chooseOption,
  createRotation,
  readRotation,
  signInPage,
  toast,
  uniqueName,
  userIds,
} from './rotation-support';
import { accounts, appOrigin } from './support';

// Dates on screen are in the browser's zone: UTC makes them predictable.
test.use({ timezoneId: 'UTC', locale: 'en-US' });

/*
 * The rotation screens' texts, counts, empty states and dialogs in Chromium. Lists are answered
 * by page.route where that is faster than building the data; the dialogs act on the real server
 * with rotations each test makes itself.
 */

const person = (id: number, name: string) => ({
  id,
  name,
  email: `${name.split(' ')[0]?.toLowerCase()}@example.com`,
  phone: null,
});
const olivia = person(9001, 'Olivia Ortiz');
const noah = person(9002, 'Noah Nakamura');

/** fakeRotation builds a rotation answer (checked against the API's own schema). */
function fakeRotation(id: number, name: string, over: Partial<Rotation> = {}): Rotation {
  const cadence = over.cadence ?? 'weekly';
  return RotationSchema.parse({
    id,
    name,
    description: null,
    cadence,
    cadenceEvery: 1,
    layers: [
      {
        name: 'Layer 1',
        memberIds: (over.members ?? []).map((m) => m.userId),
        cadence,
        cadenceEvery: 1,
        handoffTime: '09:00',
        handoffWeekday: 1,
        activeWindows: [],
        startsAt: '2030-01-01T00:00:00.000Z',
      },
    ],
    layered: false,
    pattern: cadence === 'weekly' ? 'Weekly shifts from Monday 09:00' : 'Daily shifts at 09:00',
    type: 'fixed',
    suspended: false,
    timeZone: 'UTC',
    handoffTime: '09:00',
    handoffWeekday: 1,
    members: [],
    currentOnCallUserId: null,
    currentOnCall: null,
    holderSince: null,
    nextOnCall: null,
    nextHandoffTime: null,
    createdById: null,
    escalationPolicyId: id,
    ...over,
  });
}

const held = (by: typeof olivia) => ({
  currentOnCallUserId: by.id,
  currentOnCall: by,
  holderSince: '2030-01-01T09:00:00.000Z',
});

/** answerJson makes the page's GET of exactly `path` answer `body()` (read at each request). */
async function answerJson(
  page: Page,
  path: string,
  body: () => unknown,
  gate?: () => Promise<void>,
) {
  await page.route(
    (url) => url.pathname === path,
    async (route: Route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      if (gate) await gate();
      await route.fulfill({ json: body() });
    },
  );
}

/** failOnce makes the next `method` request to `path` fail with `status` and a server message. */
async function failOnce(page: Page, method: string, path: string, status: number, message: string) {
  let failed = false;
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (failed || route.request().method() !== method) return route.fallback();
      failed = true;
      await route.fulfill({ status, json: { message } });
    },
  );
}

const cardWithHeading = (page: Page, heading: string) =>
  page.locator('[data-slot=card]').filter({ has: page.getByRole('heading', { name: heading }) });

test('the rotations list: skeleton, empty states, summary strip and tab counts', async ({
  page,
  playwright,
  baseURL,
}) => {
  let list: Rotation[] = [];
  let release: () => void = () => {};
  let gate: Promise<void> | null = new Promise((resolve) => {
    release = resolve;
  });
  await answerJson(
    page,
    '/api/rotations',
    () => list,
    () => gate ?? Promise.resolve(),
  );
  await signInPage(page, playwright.request, baseURL ?? '', accounts.manager);
  await page.goto('/rotations');

  // While the list is on its way, a skeleton.
  await expect(page.getByRole('heading', { name: 'Rotations', level: 1 })).toBeVisible();
  await expect(
    page.getByText('Manage on-call rotation schedules and team assignments'),
  ).toBeVisible();
  const skeleton = page.getByRole('status', { name: 'Loading rotations' });
  await expect(skeleton).toBeVisible();
  release();
  gate = null;
  await expect(skeleton).toBeHidden();

  // No rotations: no summary strip, no count badges, each tab's empty state.
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toHaveCount(0);
  const tab = (name: string | RegExp) => page.getByRole('tab', { name, exact: true });
  const panel = page.getByRole('tabpanel');
  for (const name of ['All Rotations', 'Active Status', 'Suspended', 'With On-Call']) {
    await expect(tab(name)).toBeVisible();
  }
  await expect(panel.getByText('No rotations yet', { exact: true })).toBeVisible();
  await expect(
    panel.getByText('Get started by creating your first on-call rotation', { exact: true }),
  ).toBeVisible();
  await panel.getByRole('button', { name: 'Create Rotation' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Rotation' });
  await expect(create).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(create).toBeHidden();
  const emptyStates: [string, string, string][] = [
    ['Active Status', 'No active status rotations', 'There are no rotations with active status'],
    ['Suspended', 'No suspended rotations', 'There are no suspended rotations'],
    [
      'With On-Call',
      'No active on-call rotations',
      'There are no rotations with an active on-call engineer',
    ],
  ];
  for (const [name, title, text] of emptyStates) {
    await tab(name).click();
    await expect(panel.getByText(title, { exact: true })).toBeVisible();
    await expect(panel.getByText(text, { exact: true })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Create Rotation' })).toHaveCount(0);
  }

  // A mixed list: counts in the strip and on each tab, and what each tab shows.
  list = [
    fakeRotation(9101, 'Alpha', held(olivia)),
    fakeRotation(9102, 'Bravo'),
    fakeRotation(9103, 'Charlie'),
    fakeRotation(9104, 'Delta', { suspended: true, ...held(noah) }),
    fakeRotation(9105, 'Echo', { suspended: true }),
  ];
  await page.reload();
  await expect(summary).toHaveText(/^All Rotations\s*5\s*Active\s*3\s*Suspended\s*2$/);
  const shown: [RegExp, string[]][] = [
    [/^All Rotations\s*5$/, ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']],
    [/^Active Status\s*3$/, ['Alpha', 'Bravo', 'Charlie']],
    [/^Suspended\s*2$/, ['Delta', 'Echo']],
    [/^With On-Call\s*2$/, ['Alpha', 'Delta']],
  ];
  for (const [name, names] of shown) {
    await tab(name).click();
    const rows = panel.getByRole('row').filter({ has: page.getByRole('cell') });
    await expect(rows).toHaveCount(names.length);
    for (const [i, rotation] of names.entries()) {
      await expect(rows.nth(i).getByRole('cell').first()).toHaveText(new RegExp(`^${rotation}`));
    }
  }

  // Badges only above zero; a tab with nothing to show has its empty state.
  list = [fakeRotation(9102, 'Bravo'), fakeRotation(9103, 'Charlie')];
  await page.reload();
  await expect(summary).toHaveText(/^All Rotations\s*2\s*Active\s*2\s*Suspended\s*0$/);
  await expect(tab(/^Active Status\s*2$/)).toBeVisible();
  await expect(tab('Suspended')).toBeVisible();
  await tab('Suspended').click();
  await expect(panel.getByText('No suspended rotations', { exact: true })).toBeVisible();
  await tab('With On-Call').click();
  await expect(panel.getByText('No active on-call rotations', { exact: true })).toBeVisible();
  list = [fakeRotation(9105, 'Echo', { suspended: true })];
  await page.reload();
  await expect(tab('Active Status')).toBeVisible();
  await tab('Active Status').click();
  await expect(panel.getByText('No active status rotations', { exact: true })).toBeVisible();
  await tab(/^Suspended\s*1$/).click();
  await expect(panel.getByRole('cell', { name: 'Echo', exact: true })).toBeVisible();
});

test('the dashboard: counts, badges, banners and help, empty texts and links', async ({
  page,
  playwright,
  baseURL,
}) => {
  let team: Rotation[] = [];
  let mine: Rotation[] = [];
  let handoffs: Handoff[] = [];
  const handoffReads: string[] = [];
  await answerJson(page, '/api/rotations', () => team);
  await answerJson(page, '/api/user/rotations', () => mine);
  await page.route(
    (url) => url.pathname === '/api/handoffs/recent',
    async (route) => {
      handoffReads.push(new URL(route.request().url()).searchParams.get('limit') ?? '');
      await route.fulfill({ json: handoffs });
    },
  );
  await actAs(page, playwright.request, baseURL ?? '', accounts.manager);

  // Nothing yet: each section's empty text and its link.
  const yours = page.getByRole('region', { name: 'Your Rotations' });
  await expect(
    yours.getByText("You're not currently assigned to any rotations", { exact: true }),
  ).toBeVisible();
  await expect(yours.getByRole('link', { name: 'View all rotations' })).toHaveAttribute(
    'href',
    '/rotations',
  );
  const teamCard = cardWithHeading(page, 'Team Rotations');
  await expect(teamCard.getByText('Showing all 0 rotations', { exact: true })).toBeVisible();
  await expect(teamCard.getByText('No rotations found', { exact: true })).toBeVisible();
  await expect(teamCard.getByText('Includes suspended')).toHaveCount(0);
  const recent = cardWithHeading(page, 'Recent Handoffs');
  await expect(recent.getByText('No handoffs recorded yet', { exact: true })).toBeVisible();
  await expect(recent.getByRole('link', { name: 'View all handoffs' })).toHaveAttribute(
    'href',
    '/audit-log',
  );
  expect(handoffReads).toContain('5');
  await teamCard.getByRole('link', { name: 'Create your first rotation' }).click();
  await expect(page).toHaveURL(/\/rotations\/new$/);
  await expect(page.getByRole('dialog', { name: 'Create New Rotation' })).toBeVisible();

  // Rotations of every kind.
  mine = [
    fakeRotation(9201, 'Card Alpha', {
      ...held(olivia),
      nextOnCall: noah,
      nextHandoffTime: '2030-01-07T09:00:00.000Z',
    }),
    fakeRotation(9202, 'Card Bravo', { cadence: 'daily' }),
  ];
  team = [
    fakeRotation(9101, 'Alpha', { ...held(olivia), nextOnCall: noah }),
    fakeRotation(9102, 'Bravo'),
    fakeRotation(9103, 'Charlie', { suspended: true }),
  ];
  handoffs = Array.from({ length: 6 }, (_, i) => ({
    id: 9300 + i,
    status: 'success',
    kind: 'pass',
    fromUser: olivia,
    toUser: noah,
    rotation: { id: 9101 + (i % 3), name: ['Alpha', 'Bravo', 'Charlie'][i % 3] ?? '' },
    timestamp: new Date(Date.UTC(2030, 0, 10 - i, 9)).toISOString(),
    urgent: false,
    acknowledgedAt: null,
  }));
  await page.goto('/');

  const alpha = yours.locator('[data-slot=card]').filter({ hasText: 'Card Alpha' });
  await expect(alpha.getByText('Weekly rotation')).toBeVisible();
  await expect(
    alpha.getByText('Starting January 7, 2030 at 9:00 AM', { exact: true }),
  ).toBeVisible();
  const bravo = yours.locator('[data-slot=card]').filter({ hasText: 'Card Bravo' });
  await expect(bravo.getByText('Daily rotation')).toBeVisible();
  await expect(bravo.getByText('No one assigned', { exact: true })).toBeVisible();
  await expect(bravo.getByText('No one scheduled', { exact: true })).toBeVisible();

  await expect(teamCard.getByText('Showing all 3 rotations', { exact: true })).toBeVisible();
  await expect(teamCard.getByText('Includes suspended', { exact: true })).toBeVisible();
  await expect(
    teamCard.getByText('Showing 1 suspended rotation and 2 active rotations', { exact: true }),
  ).toBeVisible();
  const row = (name: string) => teamCard.getByRole('row').filter({ hasText: name });
  await expect(row('Alpha').getByRole('cell')).toHaveText([
    /^Alpha/,
    /Olivia Ortiz$/,
    /Noah Nakamura$/,
    'Active',
    'Manage',
  ]);
  await expect(row('Bravo').getByRole('cell')).toHaveText([
    /^Bravo/,
    'Not assigned',
    'Not scheduled',
    'Active',
    'Manage',
  ]);
  await expect(row('Charlie').getByRole('cell').nth(3)).toHaveText('Suspended');
  for (const [name, id] of [
    ['Alpha', 9101],
    ['Bravo', 9102],
    ['Charlie', 9103],
  ] as const) {
    await expect(teamCard.getByRole('link', { name: `Manage ${name}` })).toHaveAttribute(
      'href',
      `/rotations/${id}`,
    );
  }
  await teamCard.getByRole('button', { name: 'What does this mean?' }).click();
  const help = page.getByRole('dialog', { name: 'Suspended rotations' });
  await expect(help).toContainText(
    'Suspended rotations do not take part in alerting or automated handoffs.',
  );
  await expect(help).toContainText(
    "An administrator reactivates a rotation from its details page with the 'Activate Rotation' button.",
  );
  await page.keyboard.press('Escape');

  // Five recent handoffs at most, each linking to its rotation.
  const entries = recent.getByRole('link').filter({ hasText: 'Olivia Ortiz' });
  await expect(entries).toHaveCount(5);
  for (const [i, link] of (await entries.all()).entries()) {
    await expect(link).toHaveAttribute('href', `/rotations/${9101 + (i % 3)}`);
  }

  // The banner's other texts.
  team = [
    fakeRotation(9101, 'Alpha', { suspended: true }),
    fakeRotation(9102, 'Bravo', { suspended: true }),
    fakeRotation(9103, 'Charlie'),
  ];
  await page.reload();
  await expect(
    teamCard.getByText('Showing 2 suspended rotations and 1 active rotation', { exact: true }),
  ).toBeVisible();
  team = team.map((r) => ({ ...r, suspended: true }));
  await page.reload();
  await expect(
    teamCard.getByText('All rotations are currently suspended', { exact: true }),
  ).toBeVisible();
  await expect(teamCard.getByText('Showing all 3 rotations', { exact: true })).toBeVisible();
});

test('an on-call member sees a static team table, positions, the cadence text and schedule statuses', async ({
  page,
  playwright,
  baseURL,
}) => {
  const weekly = uniqueName('E2E Static');
  const daily = uniqueName('E2E Solo');
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const rotation = await createRotation(
    admin,
    weekly,
    [accounts.noah, accounts.onCall, accounts.sam],
    { cadence: 'weekly', description: null },
  );
  const solo = await createRotation(admin, daily, [accounts.onCall], { description: null });
  // The API refuses starts in the past: the upcoming entry is real; past, current and a broken
  // entry are added to the schedule's answer.
  const ids = await userIds(admin);
  const tomorrow = new Date(Date.now() + 24 * 3_600_000);
  const made = await admin.post(`/api/rotations/${rotation.id}/schedules`, {
    data: {
      userId: ids.get(accounts.noah.email),
      startTime: tomorrow.toISOString(),
      endTime: new Date(tomorrow.getTime() + 8 * 3_600_000).toISOString(),
    },
  });
  expect(made.status()).toBe(201);
  await admin.dispose();
  const hours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
  const entry = (id: number, who: typeof accounts.sam, start: string, end: string) => ({
    id,
    rotationId: rotation.id,
    userId: ids.get(who.email) ?? 0,
    user: { id: ids.get(who.email) ?? 0, name: who.name, email: who.email },
    startTime: start,
    endTime: end,
  });
  await page.route(
    (url) => url.pathname === `/api/rotations/${rotation.id}/schedules`,
    async (route) => {
      const real = (await (await route.fetch()).json()) as ScheduleEntry[];
      await route.fulfill({
        json: [
          ...real,
          entry(990001, accounts.sam, hours(-72), hours(-48)),
          entry(990002, accounts.onCall, hours(-1), hours(5)),
          entry(990003, accounts.priya, 'not a date', hours(10)),
        ],
      });
    },
  );

  await actAs(page, playwright.request, baseURL ?? '', accounts.onCall);
  await page.goto(`/rotations/${rotation.id}`);
  await expect(page.getByRole('heading', { level: 1, name: weekly })).toBeVisible();
  await expect(page.getByText('Weekly rotation', { exact: true })).toBeVisible();

  const team = cardWithHeading(page, 'On-Call Team');
  await expect(team.getByText('Members take turns in this order.', { exact: true })).toBeVisible();
  await expect(team.getByRole('columnheader')).toHaveText(['#', 'Name', 'Email', 'Status']);
  const rows = team.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(3);
  const expected: [string, string][] = [
    ['1', accounts.noah.name],
    ['2', accounts.onCall.name],
    ['3', accounts.sam.name],
  ];
  for (const [i, [position, name]] of expected.entries()) {
    await expect(rows.nth(i).getByRole('cell').first()).toHaveText(position);
    await expect(rows.nth(i)).toContainText(name);
  }
  // Static: no drag handles, no move or remove buttons, nothing to add.
  await expect(team.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Drag to reorder / })).toHaveCount(0);

  const schedule = cardWithHeading(page, 'Schedule');
  const status = (name: string) =>
    schedule.getByRole('row').filter({ hasText: name }).getByRole('cell').nth(3);
  await expect(status(accounts.sam.name)).toHaveText('Past');
  await expect(status(accounts.onCall.name)).toHaveText('Current');
  await expect(status(accounts.noah.name)).toHaveText('Upcoming');
  await expect(status(accounts.priya.name)).toHaveText('Unknown');
  await expect(schedule.getByRole('button', { name: /^Delete / })).toHaveCount(0);

  await page.goto(`/rotations/${solo.id}`);
  await expect(page.getByRole('heading', { level: 1, name: daily })).toBeVisible();
  await expect(page.getByText('Daily rotation', { exact: true })).toBeVisible();
  // With one member and nobody on call, no one is next (decision 120).
  await expect(cardWithHeading(page, 'Next On-Call').getByText('No one scheduled')).toBeVisible();
});

/** reopened opens a dialog again and checks that it starts empty. */
async function expectCleared(dialog: Locator, select: string, textarea: string) {
  await expect(dialog.getByLabel(select)).toHaveText('Select team member');
  await expect(dialog.getByLabel(textarea)).toHaveValue('');
}

test("the holder's dialogs: request coverage, and pass baton when the rotation cannot be read", async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Cover');
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  const rotation = await createRotation(manager, name, [accounts.onCall, accounts.noah]);
  await manager.dispose();
  await actAs(page, playwright.request, baseURL ?? '', accounts.onCall);
  expect(
    (
      await page.request.post(`/api/rotations/${rotation.id}/take-oncall`, { headers: appOrigin() })
    ).ok(),
  ).toBe(true);
  await page.reload();

  // Opening Pass Baton reads the rotation's team; when that read fails the dialog closes.
  const card = page
    .getByRole('region', { name: 'Your Rotations' })
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
  const theRotation = (url: URL) => url.pathname === `/api/rotations/${rotation.id}`;
  await page.route(theRotation, (route) =>
    route.fulfill({ status: 500, json: { message: 'Internal server error' } }),
  );
  await card.getByRole('button', { name: 'Pass Baton' }).click();
  await expect(toast(page, 'Error fetching rotation details')).toBeVisible();
  await expect(toast(page, 'Could not load team members. Please try again.')).toBeVisible();
  const pass = page.getByRole('dialog', { name: 'Pass the baton' });
  await expect(pass).toBeHidden();
  await page.unroute(theRotation);
  await card.getByRole('button', { name: 'Pass Baton' }).click();
  await expect(pass).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(pass).toBeHidden();

  // Request coverage: a refusal keeps the dialog and what was entered; success closes and clears.
  await page.goto(`/rotations/${rotation.id}`);
  await page.getByRole('button', { name: 'Request Coverage' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request coverage' });
  const local = (hoursAhead: number) =>
    new Date(Date.now() + hoursAhead * 3_600_000).toISOString().slice(0, 16);
  await chooseOption(page, dialog, 'Covering team member', accounts.noah.name);
  await dialog.getByLabel('Start time').fill(local(2));
  await dialog.getByLabel('End time').fill(local(6));
  await dialog.getByLabel('Notes (optional)').fill('Dentist');
  await failOnce(page, 'POST', `/api/rotations/${rotation.id}/cover`, 409, 'Noah is away then.');
  await dialog.getByRole('button', { name: 'Request coverage' }).click();
  await expect(toast(page, 'Error requesting coverage')).toBeVisible();
  await expect(toast(page, 'Noah is away then.')).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Covering team member')).toHaveText(accounts.noah.name);
  await expect(dialog.getByLabel('Notes (optional)')).toHaveValue('Dentist');
  await dialog.getByRole('button', { name: 'Request coverage' }).click();
  await expect(toast(page, 'Coverage requested')).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Request Coverage' }).click();
  await expectCleared(dialog, 'Covering team member', 'Notes (optional)');
  await expect(dialog.getByLabel('Start time')).toHaveValue('');
  await expect(dialog.getByLabel('End time')).toHaveValue('');
});

test("an administrator's dialogs: add on-call person, reassign, suspend and delete", async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Admin');
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const rotation = await createRotation(admin, name, [accounts.onCall, accounts.noah]);
  const eligible = (await (
    await admin.get('/api/users/by-roles?roles=on-call,manager')
  ).json()) as { name: string }[];
  await admin.dispose();
  const olivia = await apiAs(playwright.request, baseURL ?? '', accounts.onCall);
  expect((await olivia.post(`/api/rotations/${rotation.id}/take-oncall`)).ok()).toBe(true);
  await olivia.dispose();

  await actAs(page, playwright.request, baseURL ?? '', accounts.admin);
  await page.goto(`/rotations/${rotation.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // Add on-call person offers exactly the eligible users who are not members yet.
  await page.getByRole('button', { name: 'Add On-Call Person' }).click();
  const add = page.getByRole('dialog', { name: 'Add on-call person' });
  await add.getByLabel('Team member').click();
  const offered = await page.getByRole('option').allTextContents();
  const members = [accounts.onCall.name, accounts.noah.name];
  expect(offered.sort()).toEqual(
    eligible
      .map((u) => u.name)
      .filter((n) => !members.includes(n))
      .sort(),
  );
  expect(offered).not.toContain(accounts.incidentManager.name);
  await page.getByRole('option', { name: accounts.sam.name, exact: true }).click();
  await add.getByRole('button', { name: 'Add person' }).click();
  await expect(toast(page, 'On-call person added')).toBeVisible();
  await expect(add).toBeHidden();
  await page.getByRole('button', { name: 'Add On-Call Person' }).click();
  await add.getByLabel('Team member').click();
  await expect(page.getByRole('listbox')).toBeVisible();
  await expect(page.getByRole('option')).toHaveCount(offered.length - 1);
  await expect(page.getByRole('option', { name: accounts.sam.name })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await add.getByRole('button', { name: 'Cancel' }).click();
  await expect(add).toBeHidden();

  // Reassign: the holder is not offered; a refusal keeps the dialog, success closes and clears.
  await page.getByRole('button', { name: 'Reassign', exact: true }).click();
  const reassign = page.getByRole('dialog', { name: 'Reassign on-call' });
  await reassign.getByLabel('Assign on-call to').click();
  await expect(page.getByRole('option')).toHaveText([accounts.noah.name, accounts.sam.name]);
  await page.getByRole('option', { name: accounts.sam.name, exact: true }).click();
  await reassign.getByLabel('Notes (optional)').fill('Olivia is off sick');
  await failOnce(
    page,
    'POST',
    `/api/rotations/${rotation.id}/assign-oncall`,
    409,
    'The baton changed hands while your request was waiting. Refresh and try again.',
  );
  await reassign.getByRole('button', { name: 'Reassign on-call' }).click();
  await expect(toast(page, 'Error assigning on-call')).toBeVisible();
  await expect(reassign).toBeVisible();
  await expect(reassign.getByLabel('Notes (optional)')).toHaveValue('Olivia is off sick');
  await reassign.getByRole('button', { name: 'Reassign on-call' }).click();
  await expect(toast(page, 'On-call duties reassigned')).toBeVisible();
  await expect(reassign).toBeHidden();
  await expect(cardWithHeading(page, 'Current On-Call')).toContainText(accounts.sam.name);
  await page.getByRole('button', { name: 'Reassign', exact: true }).click();
  await expectCleared(reassign, 'Assign on-call to', 'Notes (optional)');
  await page.keyboard.press('Escape');

  // Suspend with the button.
  await page.getByRole('button', { name: 'Suspend Rotation' }).click();
  await expect(toast(page, 'Rotation suspended')).toBeVisible();
  await expect(page.getByText('This rotation is suspended')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Activate Rotation' })).toBeVisible();
  expect((await readRotation(page, rotation.id)).suspended).toBe(true);

  // Delete, confirmed: a failure keeps the confirmation; success returns to the list.
  await page.getByRole('button', { name: 'Delete Rotation' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete ${name}?` });
  await failOnce(page, 'DELETE', `/api/rotations/${rotation.id}`, 500, 'Database unavailable');
  await confirm.getByRole('button', { name: 'Delete Rotation' }).click();
  await expect(toast(page, 'Error deleting rotation')).toBeVisible();
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete Rotation' }).click();
  await expect(toast(page, 'Rotation deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/rotations$/);
  await expect(page.getByRole('heading', { name: 'Rotations', level: 1 })).toBeVisible();
  await expect(page.getByRole('cell', { name, exact: true })).toHaveCount(0);
  expect((await page.request.get(`/api/rotations/${rotation.id}`)).status()).toBe(404);
});

test('the person choice says it is loading or failed; the history cards say when they fail', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E States');
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const rotation = await createRotation(admin, name, [accounts.onCall, accounts.noah]);
  await admin.dispose();
  await actAs(page, playwright.request, baseURL ?? '', accounts.admin);

  // Both history cards fail on their own, each saying which history and why.
  await failOnce(page, 'GET', '/api/audit-log/handoffs', 500, 'Handoffs are unavailable.');
  await failOnce(page, 'GET', `/api/rotations/${rotation.id}/pages`, 500, 'Pages are unavailable.');
  await page.goto(`/rotations/${rotation.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const handoffs = cardWithHeading(page, 'Handoff history');
  await expect(handoffs.getByText('Failed to fetch handoff history')).toBeVisible();
  await expect(handoffs.getByText('Handoffs are unavailable.')).toBeVisible();
  await expect(handoffs.getByRole('link', { name: /View all/ })).toBeVisible();
  const pages = cardWithHeading(page, 'Page history');
  await expect(pages.getByText('Failed to fetch page history')).toBeVisible();
  await expect(pages.getByText('Pages are unavailable.')).toBeVisible();
  await page.reload();
  await expect(handoffs.getByText('No handoffs recorded yet')).toBeVisible();
  await expect(pages.getByText('No pages sent for this rotation yet')).toBeVisible();

  // While the people load, the dialog holds their place and cannot be sent.
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/users/by-roles**', async (route) => {
    await gate;
    await route.fallback();
  });
  await page.getByRole('button', { name: 'Add On-Call Person' }).click();
  const add = page.getByRole('dialog', { name: 'Add on-call person' });
  await expect(add.locator('[data-slot=skeleton]').first()).toBeVisible();
  await expect(add.getByRole('button', { name: 'Add person' })).toBeDisabled();
  release();
  await expect(add.getByLabel('Team member')).toBeVisible();
  await expect(add.locator('[data-slot=skeleton]')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(add).toBeHidden();

  // When they cannot be read, the dialog says so instead of offering an empty choice.
  await page.unrouteAll();
  await failOnce(page, 'GET', '/api/users/by-roles', 500, 'Users are unavailable.');
  await page.reload();
  await page.getByRole('button', { name: 'Add On-Call Person' }).click();
  await expect(add.getByRole('alert')).toHaveText('Failed to fetch eligible users');
  await expect(add.getByLabel('Team member')).toHaveCount(0);
});
