import { expect, type Locator, type Page, test } from '@playwright/test';
import { switchMode } from './accessibility-support';
import { animationsDone, axeBuilder, COLOUR_RULES } from './axe';
import {
  actAs,
  apiAs,
  chooseOption,
  createRotation,
  readRotation,
  toast,
  uniqueName,
} from './rotation-support';
import { accounts, appOrigin } from './support';

// A ceiling: the axe check of every rotation dialog took 82 s with two shards on two cores.
test.describe.configure({ timeout: 120_000 });

/*
 * Rotation journeys in Chromium against the real server. Each test makes its own rotation
 * (unique name) so tests do not depend on each other or on the order they run in.
 */

async function memberNamesInOrder(page: Page, id: number): Promise<string[]> {
  const rotation = await readRotation(page, id);
  return [...rotation.members].sort((a, b) => a.order - b.order).map((m) => m.user.name);
}

/** teamRows returns the names shown in the On-Call Team table, top to bottom. */
async function teamNames(page: Page): Promise<string[]> {
  const handles = page.getByRole('button', { name: /^Drag to reorder / });
  const labels = await handles.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  return labels.map((l) => (l ?? '').replace('Drag to reorder ', ''));
}

/**
 * dragHandle drags a row's handle onto another row with the mouse, in small steps. It lets go
 * only once dnd-kit has announced the move (`arrived`), as a person lets go once the row has
 * moved: on a loaded machine the pointer can otherwise outrun dnd-kit's measuring frames.
 */
async function dragHandle(page: Page, from: Locator, to: Locator, arrived: string) {
  // A live update can move the rows between measuring the handle and pressing it, and the press
  // then lands beside it: as a person would, let go and take hold again until the drag starts.
  await expect(async () => {
    // The mouse presses where the page is: a handle below the window is scrolled to first.
    await from.scrollIntoViewIfNeeded();
    const start = await from.boundingBox();
    if (!start) throw new Error('drag handle not visible');
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await page.mouse.down();
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2 - 8, { steps: 4 });
    try {
      await expect(from).toHaveAttribute('aria-pressed', 'true', { timeout: 3_000 });
    } catch (error) {
      // Say what the press met, so that a drag that never starts names its cause.
      const met = await page.evaluate(
        ({ x, y }) => ({
          element: document.elementFromPoint(x, y)?.outerHTML.slice(0, 160),
          bodyPointerEvents: getComputedStyle(document.body).pointerEvents,
        }),
        { x: start.x + start.width / 2, y: start.y + start.height / 2 - 8 },
      );
      await page.mouse.up();
      throw new Error(`the drag did not start; the press met ${JSON.stringify(met)}`, {
        cause: error,
      });
    }
  }).toPass({ timeout: 20_000 });
  const end = await to.boundingBox();
  if (!end) throw new Error('drop target not visible');
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2 - 6, { steps: 12 });
  await expect(page.getByText(arrived, { exact: true })).toBeAttached();
  await page.mouse.up();
}

test('a manager creates a rotation, adds three members and reorders them by drag and keyboard', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Team');
  await actAs(page, playwright.request, baseURL ?? '', accounts.manager);

  // /rotations/new opens the same creation flow as 'New Rotation' on the list.
  await page.goto('/rotations/new');
  const create = page.getByRole('dialog', { name: 'Create New Rotation' });
  await expect(create).toBeVisible();
  await expect(create.getByText('Set up a new on-call rotation for your team.')).toBeVisible();
  await create.getByLabel('Name').fill('ab');
  await create.getByRole('button', { name: 'Create Rotation' }).click();
  await expect(create.getByText('Rotation name must be at least 3 characters.')).toBeVisible();
  await create.getByLabel('Name').fill(name);
  await create.getByLabel('Description').fill('Checkout and payments, nights and weekends.');
  await expect(create.getByLabel('Description')).toHaveAttribute('rows', '3');
  await chooseOption(page, create, 'Cadence', 'Daily');
  await create.getByRole('button', { name: 'Create Rotation' }).click();
  await expect(toast(page, 'Rotation created')).toBeVisible();
  await expect(toast(page, 'Your rotation has been created successfully.')).toBeVisible();
  await expect(page).toHaveURL(/\/rotations\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Checkout and payments, nights and weekends.')).toBeVisible();
  await expect(page.getByText('No one is in this rotation yet')).toBeVisible();
  const id = Number(page.url().split('/').pop());

  for (const person of [accounts.onCall, accounts.noah, accounts.sam]) {
    await page.getByRole('button', { name: 'Add On-Call Person' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add on-call person' });
    await dialog.getByRole('button', { name: 'Add person' }).click();
    await expect(dialog.getByText('Please select a team member', { exact: true })).toBeVisible();
    await chooseOption(page, dialog, 'Team member', person.name);
    await expect(dialog.getByText(person.email)).toBeVisible();
    await dialog.getByRole('button', { name: 'Add person' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'On-call person added')).toBeVisible();
    await expect(page.getByRole('cell', { name: person.name, exact: true })).toBeVisible();
  }
  await expect
    .poll(() => teamNames(page))
    .toEqual(['Olivia Ortiz', 'Noah Nakamura', 'Sam Sullivan']);
  // With nobody holding the baton, the first member is next.
  await expect(
    page
      .getByRole('row', { name: /Olivia Ortiz/ })
      .getByText('Next On-Call')
      .filter({ visible: true }),
  ).toBeVisible();

  // Drag Sam to the top with the mouse.
  await dragHandle(
    page,
    page.getByRole('button', { name: 'Drag to reorder Sam Sullivan' }),
    page.getByRole('button', { name: 'Drag to reorder Olivia Ortiz' }),
    'Sam Sullivan moved to position 1 of 3.',
  );
  await expect(toast(page, 'Rotation order updated')).toBeVisible();
  await expect
    .poll(() => teamNames(page))
    .toEqual(['Sam Sullivan', 'Olivia Ortiz', 'Noah Nakamura']);
  await expect
    .poll(() => memberNamesInOrder(page, id))
    .toEqual(['Sam Sullivan', 'Olivia Ortiz', 'Noah Nakamura']);

  // Move Sam back to the bottom from the keyboard: pick up, two steps down, drop.
  const samHandle = page.getByRole('button', { name: 'Drag to reorder Sam Sullivan' });
  // Each key waits until dnd-kit has taken in the one before, as a person waits to hear it: a
  // key pressed before the pick-up (or a move) is taken in is lost on a loaded machine. The
  // refetch after the drag above can render the rows again and take the focus with it: as a
  // person would, put it back and pick up again (Escape first puts down a late pick-up).
  await expect(async () => {
    await samHandle.focus();
    await page.keyboard.press('Space');
    try {
      await expect(samHandle).toHaveAttribute('aria-pressed', 'true', { timeout: 3_000 });
    } catch (error) {
      await page.keyboard.press('Escape');
      throw error;
    }
  }).toPass({ timeout: 20_000 });
  for (const [key, heard] of [
    ['ArrowDown', 'Sam Sullivan moved to position 2 of 3.'],
    ['ArrowDown', 'Sam Sullivan moved to position 3 of 3.'],
    ['Space', 'Sam Sullivan dropped at position 3 of 3.'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(page.getByText(heard, { exact: true })).toBeAttached();
  }
  await expect
    .poll(() => memberNamesInOrder(page, id))
    .toEqual(['Olivia Ortiz', 'Noah Nakamura', 'Sam Sullivan']);
  await expect
    .poll(() => teamNames(page))
    .toEqual(['Olivia Ortiz', 'Noah Nakamura', 'Sam Sullivan']);

  // And one step up with the accessible button.
  await page.getByRole('button', { name: 'Move Sam Sullivan up' }).click();
  await expect
    .poll(() => memberNamesInOrder(page, id))
    .toEqual(['Olivia Ortiz', 'Sam Sullivan', 'Noah Nakamura']);
  await expect(page.getByRole('button', { name: 'Move Olivia Ortiz up' })).toBeDisabled();

  // Removing asks first; cancelling changes nothing.
  await page.getByRole('button', { name: 'Remove Noah Nakamura' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove Noah Nakamura?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect.poll(() => teamNames(page)).toHaveLength(3);
  await page.getByRole('button', { name: 'Remove Noah Nakamura' }).click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'On-call person removed')).toBeVisible();
  await expect.poll(() => teamNames(page)).toEqual(['Olivia Ortiz', 'Sam Sullivan']);

  // The new rotation is on the list.
  await page.getByRole('link', { name: 'Back to Rotations' }).click();
  await expect(page.getByRole('heading', { name: 'Rotations' })).toBeVisible();
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();
});

test('a member takes on-call and passes the baton with notes; the receiver sees it', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Relay');
  const notes = `Disk alarms on db-3 are expected until the migration ends (${name}).`;
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  await createRotation(manager, name, [accounts.noah, accounts.sam, accounts.onCall]);
  await manager.dispose();

  await actAs(page, playwright.request, baseURL ?? '', accounts.noah);
  const card = page
    .getByRole('region', { name: 'Your Rotations' })
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(card.getByText('No one assigned')).toBeVisible();
  // With nobody holding the baton the first member, Noah, is next.
  await expect(card.getByText('Up next', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Take On-Call' }).click();
  await expect(toast(page, 'On-call responsibility taken')).toBeVisible();
  await expect(toast(page, `You are now on-call for ${name}`)).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card.getByText(/^Since /)).toBeVisible();

  await card.getByRole('button', { name: 'Pass Baton' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pass the baton' });
  await expect(
    dialog.getByText(
      `You are about to pass your on-call responsibilities for ${name}. Select a team member to take over.`,
    ),
  ).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Confirm handoff' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Pass baton to').click();
  // The holder is not offered to themselves.
  await expect(page.getByRole('option', { name: accounts.noah.name })).toHaveCount(0);
  await page.getByRole('option', { name: accounts.sam.name, exact: true }).click();
  await expect(dialog.getByText(accounts.sam.email)).toBeVisible();
  await expect(dialog.getByLabel('Handoff notes (optional)')).toHaveAttribute('rows', '3');
  await dialog.getByLabel('Handoff notes (optional)').fill(notes);
  await confirm.click();
  await expect(toast(page, 'Baton passed successfully')).toBeVisible();
  await expect(toast(page, `You've passed the baton to ${accounts.sam.name}`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Member', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Pass Baton' })).toHaveCount(0);

  // The receiver sees the baton on their dashboard and the handoff in Recent Handoffs.
  await actAs(page, playwright.request, baseURL ?? '', accounts.sam);
  const samCard = page
    .getByRole('region', { name: 'Your Rotations' })
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(samCard.getByText('Active', { exact: true })).toBeVisible();
  await expect(samCard.getByRole('button', { name: 'Pass Baton' })).toBeVisible();
  const recent = page.locator('[data-slot=card]').filter({
    has: page.getByRole('heading', { name: 'Recent Handoffs' }),
  });
  const entry = recent.getByRole('link').filter({ hasText: name }).filter({ hasText: notes });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText(`${accounts.noah.name}`);
  await expect(entry).toContainText(`${accounts.sam.name}`);
  await expect(entry).toContainText(notes);
  await entry.click();
  await expect(page).toHaveURL(/\/rotations\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(
    page
      .getByRole('row', { name: /Sam Sullivan/ })
      .getByText('Currently On-Call')
      .filter({ visible: true }),
  ).toBeVisible();
});

test('a rotation made with its members has someone on call from the moment it exists', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Day One');
  await actAs(page, playwright.request, baseURL ?? '', accounts.manager);
  await page.goto('/rotations/new');
  const create = page.getByRole('dialog', { name: 'Create New Rotation' });
  await create.getByLabel('Name').fill(name);
  await chooseOption(page, create, 'Cadence', 'Daily');
  const order = create.getByRole('list', { name: 'Turn order' }).getByRole('listitem');
  for (const [at, person] of [accounts.onCall, accounts.noah, accounts.sam].entries()) {
    await create.getByRole('combobox', { name: 'Add a member' }).click();
    await page.getByRole('listbox').getByRole('option', { name: person.name, exact: true }).click();
    await expect(order).toHaveCount(at + 1);
  }
  // Someone chosen once is not offered again.
  await create.getByRole('combobox', { name: 'Add a member' }).click();
  await expect(
    page.getByRole('listbox').getByRole('option', { name: accounts.noah.name, exact: true }),
  ).toHaveCount(0);
  await page.keyboard.press('Escape');
  await create.getByRole('button', { name: `Move ${accounts.sam.name} earlier` }).click();
  await expect(order.nth(1)).toContainText(accounts.sam.name);
  // The first member starts unless another is chosen.
  await expect(create.getByLabel('On call first')).toContainText(accounts.onCall.name);
  await chooseOption(page, create, 'On call first', accounts.sam.name);
  await expect(
    create.getByText(`${accounts.sam.name} holds the baton as soon as the rotation is created`),
  ).toBeVisible();
  await create.getByRole('button', { name: 'Create Rotation' }).click();
  await expect(toast(page, 'Rotation created')).toBeVisible();
  await expect(page).toHaveURL(/\/rotations\/\d+$/);
  const id = Number(page.url().split('/').pop());
  await expect
    .poll(() => memberNamesInOrder(page, id))
    .toEqual([accounts.onCall.name, accounts.sam.name, accounts.noah.name]);
  expect((await readRotation(page, id)).currentOnCallUserId).toBe(
    (await readRotation(page, id)).members.find((m) => m.user.name === accounts.sam.name)?.userId,
  );
  await expect(page.getByText('No one assigned')).toHaveCount(0);
  await expect(
    page
      .locator('[data-slot=card]')
      .filter({ has: page.getByRole('heading', { name: 'Current On-Call' }) }),
  ).toContainText(accounts.sam.name);
});

test('an emergency handoff waits for the receiver to acknowledge it on the card and the rotation page', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Emergency');
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  await createRotation(manager, name, [accounts.noah, accounts.sam]);
  await manager.dispose();

  await actAs(page, playwright.request, baseURL ?? '', accounts.noah);
  const card = page
    .getByRole('region', { name: 'Your Rotations' })
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
  await card.getByRole('button', { name: 'Take On-Call' }).click();
  await expect(toast(page, 'On-call responsibility taken')).toBeVisible();
  // Taking on-call is its own acknowledgement.
  await expect(card.getByRole('button', { name: 'Accept handoff' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Pass Baton' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pass the baton' });
  await dialog.getByLabel('Pass baton to').click();
  await page.getByRole('option', { name: accounts.sam.name, exact: true }).click();
  await dialog.getByRole('checkbox', { name: 'Emergency handoff' }).check();
  await dialog.getByRole('button', { name: 'Confirm handoff' }).click();
  await expect(toast(page, 'Baton passed successfully')).toBeVisible();
  // The giver sees themselves as backup until the receiver acknowledges.
  await expect(card.getByText(`Backup: ${accounts.noah.name}`)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Accept handoff' })).toHaveCount(0);

  await actAs(page, playwright.request, baseURL ?? '', accounts.sam);
  const samCard = page
    .getByRole('region', { name: 'Your Rotations' })
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(samCard.getByRole('button', { name: 'Accept handoff' })).toBeVisible();
  await samCard.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const notice = page.getByRole('alert').filter({
    hasText: 'Emergency handoff: acknowledge your on-call duty',
  });
  await expect(notice).toBeVisible();
  await expect(
    page.getByText(`Backup: ${accounts.noah.name} until the emergency handoff is acknowledged`),
  ).toBeVisible();
  await notice.getByRole('button', { name: 'Accept handoff' }).click();
  await expect(toast(page, 'Handoff acknowledged')).toBeVisible();
  await expect(toast(page, `You acknowledged new on-call duty for ${name}.`)).toBeVisible();
  await expect(notice).toBeHidden();
  await expect(page.getByText(/until the emergency handoff is acknowledged/)).toHaveCount(0);

  // The audit log tells the story.
  await page.goto('/audit-log');
  await page.getByLabel('Search handoffs').fill(name);
  await expect(
    page.getByText(`${accounts.sam.name} acknowledged new on-call duty`).first(),
  ).toBeVisible();
});

test('a passed shift boundary asks the holder to pass the baton on the card and the rotation page', async ({
  page,
  playwright,
  baseURL,
}) => {
  // The server's side (when a boundary is due) is covered with a manual clock in engine.test.ts;
  // here the answers carry a due boundary an hour ago so the screens can be checked now.
  const name = uniqueName('E2E Due');
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  await createRotation(manager, name, [accounts.noah, accounts.sam]);
  await manager.dispose();
  const hour = 3_600_000;
  const handoffDue = {
    boundary: new Date(Date.now() - hour).toISOString(),
    escalateAt: new Date(Date.now() - hour / 2).toISOString(),
    autoTransferAt: new Date(Date.now() + 5 * hour).toISOString(),
  };
  const withDue = (r: { name: string }) => (r.name === name ? { ...r, handoffDue } : r);
  // The rotation reads, and the take's answer, which the screens show as the new state.
  await page.route(
    (url) =>
      url.pathname === '/api/user/rotations' ||
      /^\/api\/rotations\/\d+(\/take-oncall)?$/.test(url.pathname),
    async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      await route.fulfill({
        response,
        json: Array.isArray(body) ? body.map(withDue) : withDue(body),
      });
    },
  );

  await actAs(page, playwright.request, baseURL ?? '', accounts.noah);
  const card = page
    .getByRole('region', { name: 'Your Rotations' })
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
  await card.getByRole('button', { name: 'Take On-Call' }).click();
  await expect(toast(page, 'On-call responsibility taken')).toBeVisible();
  await expect(card.getByText(/^Handoff due since .+: pass the baton$/)).toBeVisible();

  await card.getByRole('link', { name, exact: true }).click();
  const notice = page
    .getByRole('alert')
    .filter({ hasText: 'Your shift has ended: pass the baton' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(`Pass the baton to ${accounts.sam.name} with notes`);
  await notice.getByRole('button', { name: 'Pass Baton' }).click();
  await expect(page.getByRole('dialog', { name: 'Pass the baton' })).toBeVisible();
  // A read under way when the test ends (a live update's refetch) would fail in the handler
  // above once the page closes ("Response has been disposed"): the routes go first.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('a suspended rotation refuses a handoff, and the pass-baton dialog stays open', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Frozen');
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const rotation = await createRotation(admin, name, [accounts.noah, accounts.sam]);

  await actAs(page, playwright.request, baseURL ?? '', accounts.noah);
  const take = await page.request.post(`/api/rotations/${rotation.id}/take-oncall`, {
    headers: appOrigin(),
  });
  expect(take.ok()).toBe(true);
  await page.reload();

  const card = page
    .getByRole('region', { name: 'Your Rotations' })
    .locator('[data-slot=card]')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
  await card.getByRole('button', { name: 'Pass Baton' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pass the baton' });
  await dialog.getByLabel('Pass baton to').click();
  await page.getByRole('option', { name: accounts.sam.name, exact: true }).click();
  await dialog.getByLabel('Handoff notes (optional)').fill('Handing over before the freeze');

  // Meanwhile an administrator suspends the rotation.
  const suspended = await admin.post(`/api/rotations/${rotation.id}/suspend`);
  expect(suspended.ok()).toBe(true);

  await dialog.getByRole('button', { name: 'Confirm handoff' }).click();
  await expect(toast(page, 'Error passing baton')).toBeVisible();
  await expect(
    toast(page, 'This rotation is suspended and does not accept handoffs. Activate it first.'),
  ).toBeVisible();
  // A failed handoff leaves the dialog open with what was entered.
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Handoff notes (optional)')).toHaveValue(
    'Handing over before the freeze',
  );
  await expect(dialog.getByRole('button', { name: 'Confirm handoff' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await readRotation(page, rotation.id)).currentOnCallUserId).not.toBeNull();
  const after = await readRotation(page, rotation.id);
  expect(after.suspended).toBe(true);

  // The rotation now reads as suspended and offers no handoff.
  await page.reload();
  await expect(card.getByText('Suspended', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Pass Baton' })).toHaveCount(0);
  const team = page.locator('[data-slot=card]').filter({
    has: page.getByRole('heading', { name: 'Team Rotations' }),
  });
  await expect(team.getByText('Includes suspended')).toBeVisible();
  await expect(
    team.getByText(/^Showing \d+ suspended rotations? and \d+ active rotations?$/),
  ).toBeVisible();
  await team.getByRole('button', { name: 'What does this mean?' }).click();
  await expect(page.getByText(/do not take part in alerting or automated handoffs/)).toBeVisible();

  // An administrator activates it again from its details page.
  await actAs(page, playwright.request, baseURL ?? '', accounts.admin);
  await page.goto(`/rotations/${rotation.id}`);
  await expect(page.getByText('This rotation is suspended')).toBeVisible();
  await page.getByRole('button', { name: 'Activate Rotation' }).click();
  await expect(toast(page, 'Rotation activated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Suspend Rotation' })).toBeVisible();
  await expect(page.getByText('This rotation is suspended')).toHaveCount(0);
  await admin.dispose();
});

test('an admin changes the type: refused without a schedule entry, accepted with one', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Calendar');
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const rotation = await createRotation(admin, name, [accounts.noah, accounts.sam]);
  await admin.dispose();

  await actAs(page, playwright.request, baseURL ?? '', accounts.admin);
  await page.goto(`/rotations/${rotation.id}`);
  await expect(page.getByText('No schedule entries yet')).toBeVisible();

  // Without an entry the server refuses: 'Schedule needed' and the set-up guide.
  await page.getByLabel('Type').click();
  await page.getByRole('option', { name: 'Scheduled' }).click();
  await expect(toast(page, 'Schedule needed')).toBeVisible();
  const guide = page.getByRole('dialog', { name: 'Set up scheduled mode' });
  await expect(guide).toBeVisible();
  await expect(page.getByLabel('Type')).toHaveText('Fixed');

  // The guide leads to the add-schedule form.
  await guide.getByRole('button', { name: 'Add schedule' }).click();
  const form = page.getByRole('dialog', { name: 'Add schedule' });
  await expect(form).toBeVisible();
  await expect(form.getByText('Times are in your time zone (America/New_York).')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Pick an end date' })).toBeDisabled();
  await form.getByRole('button', { name: 'Add schedule' }).click();
  await expect(form.getByText('Please select a team member', { exact: true })).toBeVisible();
  await expect(form.getByText('Start time must be a valid date and time')).toBeVisible();

  await chooseOption(page, form, 'Team member', accounts.noah.name);
  await form.getByRole('button', { name: 'Pick a start date' }).click();
  const calendar = page.locator('[data-slot=popover-content]');
  // Past days cannot be picked; a day ahead can. The dialog's days are those of the admin's
  // profile zone (America/New_York), whatever zone the browser runs in.
  const [year, month, date] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' })
    .format(new Date())
    .split('-')
    .map(Number);
  const today = new Date(year, month - 1, date);
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  const dayButton = (d: Date) =>
    calendar.locator(`button[data-day="${d.toLocaleDateString('en-US')}"]`);
  if (yesterday.getMonth() === today.getMonth()) await expect(dayButton(yesterday)).toBeDisabled();
  if (tomorrow.getMonth() !== today.getMonth() && (await dayButton(tomorrow).count()) === 0) {
    await calendar.getByRole('button', { name: /next month/i }).click();
  }
  await dayButton(tomorrow).first().click();
  // A picked start day starts at 12:00 PM and the end follows 24 hours later.
  await expect(form.getByRole('button', { name: '12:00 PM' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(form.getByRole('button', { name: '1 day' })).toHaveAttribute('aria-pressed', 'true');
  await form.getByRole('button', { name: '9:00 AM' }).click();
  await form.getByRole('button', { name: '12 hours' }).click();
  await expect(form.getByText(/from .* at 9:00 AM until .* at 9:00 PM \(12 hours\)/)).toBeVisible();
  await form.getByRole('button', { name: 'Add schedule' }).click();
  await expect(toast(page, 'Schedule created')).toBeVisible();
  await expect(form).toBeHidden();
  const row = page.getByRole('row', { name: /Noah Nakamura/ }).filter({ hasText: 'Upcoming' });
  await expect(row).toBeVisible();
  // 9:00 AM was picked in the admin's zone: the entry starts at 9:00 AM New York time.
  const entries = (await (
    await page.request.get(`/api/rotations/${rotation.id}/schedules`)
  ).json()) as { startTime: string }[];
  expect(entries).toHaveLength(1);
  const startsAt = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(entries[0]!.startTime));
  expect(startsAt).toMatch(/^9:00\sAM$/);

  // With an entry the switch goes through.
  await page.getByLabel('Type').click();
  await page.getByRole('option', { name: 'Scheduled' }).click();
  await expect(toast(page, 'Rotation type updated')).toBeVisible();
  await expect(page.getByLabel('Type')).toHaveText('Scheduled');
  await expect(page.getByText('On-call follows these entries.')).toBeVisible();

  // And back, then delete the entry with confirmation.
  await page.getByLabel('Type').click();
  await page.getByRole('option', { name: 'Fixed' }).click();
  await expect(toast(page, 'Rotation type updated')).toBeVisible();
  await row.getByRole('button', { name: /^Delete Noah Nakamura's schedule entry/ }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete schedule entry?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Schedule deleted')).toBeVisible();
  await expect(page.getByText('No schedule entries yet')).toBeVisible();
});

test('a missing rotation shows Rotation Not Found with a way back', async ({
  page,
  playwright,
  baseURL,
}) => {
  await actAs(page, playwright.request, baseURL ?? '', accounts.onCall);
  await page.goto('/rotations/999999');
  await expect(page.getByRole('heading', { name: 'Rotation Not Found' })).toBeVisible();
  await expect(
    page.getByText('The requested rotation could not be found. It may have been deleted.'),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Return to Rotations' }).click();
  await expect(page).toHaveURL(/\/rotations$/);
  // An on-call engineer sees the list without creation controls.
  await expect(page.getByRole('heading', { name: 'Rotations' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Rotation' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: /All Rotations/ })).toBeVisible();
  await page.getByRole('tab', { name: /Suspended/ }).click();
  await expect(page.getByRole('cell', { name: 'Legacy Payments', exact: true })).toBeVisible();
});

/**
 * seriousViolations returns axe's serious and critical findings on the page as it is now: with
 * `colourOnly`, of the rules that read colours (COLOUR_RULES, all within these tags).
 */
async function seriousViolations(page: Page, label: string, colourOnly = false) {
  await animationsDone(page);
  const check = axeBuilder(page);
  const results = await (colourOnly
    ? check.withRules(COLOUR_RULES)
    : check.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
  ).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ label, id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/**
 * inBothModes: seriousViolations of the page as it is now in light mode, then in dark with the
 * app's own toggle (which a script's click reaches behind an open dialog) on the same document,
 * where only the rules that read colours can find anything new; the page is left light.
 */
async function inBothModes(page: Page, label: string) {
  const found = await seriousViolations(page, `${label} (light)`);
  await switchMode(page, true);
  found.push(...(await seriousViolations(page, `${label} (dark)`, true)));
  await switchMode(page, false);
  return found;
}

test('every rotation dialog, open, has no serious or critical axe violations', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(420_000);
  const name = uniqueName('E2E Axe');
  const admin = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const rotation = await createRotation(admin, name, [accounts.onCall, accounts.noah]);
  await admin.dispose();
  const olivia = await apiAs(playwright.request, baseURL ?? '', accounts.onCall);
  expect((await olivia.post(`/api/rotations/${rotation.id}/take-oncall`)).ok()).toBe(true);
  await olivia.dispose();
  const findings: Awaited<ReturnType<typeof seriousViolations>> = [];
  await page.addInitScript(() => localStorage.setItem('darkMode', 'false'));

  await actAs(page, playwright.request, baseURL ?? '', accounts.onCall);
  await page.goto(`/rotations/${rotation.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  for (const [button, submit] of [
    ['Pass Baton', null],
    ['Request Coverage', 'Request coverage'],
  ] as const) {
    await page.getByRole('button', { name: button, exact: true }).click();
    const dialog = page.getByRole('dialog');
    // With its validation messages showing, where it has them.
    if (submit) await dialog.getByRole('button', { name: submit }).click();
    findings.push(...(await inBothModes(page, button)));
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  await actAs(page, playwright.request, baseURL ?? '', accounts.admin);
  await page.getByRole('button', { name: 'What does this mean?' }).click();
  findings.push(...(await inBothModes(page, 'suspended help')));
  await page.keyboard.press('Escape');
  await page.goto('/rotations/new');
  await page.getByRole('button', { name: 'Create Rotation' }).click();
  findings.push(...(await inBothModes(page, 'create')));
  await page.goto(`/rotations/${rotation.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  for (const button of [
    'Add Schedule',
    'How scheduled mode works',
    'Reassign',
    'Page On-Call',
    'Add On-Call Person',
    'Edit',
    'Delete Rotation',
    'Remove Noah Nakamura',
  ]) {
    await page.getByRole('button', { name: button, exact: true }).click();
    const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog'));
    await expect(dialog).toBeVisible();
    if (button === 'Add Schedule') {
      await dialog.getByRole('button', { name: 'Pick a start date' }).click();
      findings.push(...(await inBothModes(page, 'start calendar')));
      await page.keyboard.press('Escape');
    }
    findings.push(...(await inBothModes(page, button)));
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});
