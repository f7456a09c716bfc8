import {
  type APIRequest,
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { E2E_PASSWORD, ownOrigin } from './support';

/*
 * Helpers of the rotation browser specs (decision 034): sessions signed in once per worker and
 * reused, and rotations made through the API with a unique name.
 */

export type Account = { email: string; name: string };
export type ApiRotation = {
  id: number;
  name: string;
  description: string | null;
  suspended: boolean;
  timeZone: string;
  handoffTime: string;
  handoffWeekday: number;
  nextHandoffTime: string | null;
  currentOnCallUserId: number | null;
  members: { id: number; userId: number; order: number; user: { name: string } }[];
};

let counter = 0;
/** uniqueName returns the label with a suffix no other test run uses. */
export const uniqueName = (label: string) =>
  `${label} ${Date.now().toString(36)}${(counter++).toString(36)}`;

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

// Each account signs in once per worker (a worker is one process) and server, and its session is
// reused by the tests that follow: a sign-in costs a password hash on the server, and the
// configuration's SIGN_IN_RATE_LIMIT is set so high that none is refused (playwright.config.ts).
const sessions = new Map<string, StorageState>();

/**
 * sessionOf returns a signed-in session of the account on the server at `baseURL`, signing in
 * through the API the first time.
 */
export async function sessionOf(
  request: APIRequest,
  baseURL: string,
  who: Account,
): Promise<StorageState> {
  const key = `${baseURL} ${who.email}`;
  const known = sessions.get(key);
  if (known) return known;
  const api = await request.newContext({ baseURL, extraHTTPHeaders: ownOrigin(baseURL) });
  try {
    const res = await api.post('/api/auth/login', {
      data: { email: who.email, password: E2E_PASSWORD },
    });
    expect(res.status(), `sign-in as ${who.email}: ${await res.text()}`).toBe(200);
    const state = await api.storageState();
    sessions.set(key, state);
    return state;
  } finally {
    await api.dispose();
  }
}

/** apiAs returns a request context signed in as the account; dispose it when done. */
export async function apiAs(request: APIRequest, baseURL: string, who: Account) {
  const storageState = await sessionOf(request, baseURL, who);
  return request.newContext({ baseURL, storageState, extraHTTPHeaders: ownOrigin(baseURL) });
}

/** raiseIncident raises an incident on the named rotation through the API, as `who`; its id. */
export async function raiseIncident(
  request: APIRequest,
  baseURL: string,
  who: Account,
  rotationName: string,
  title: string,
): Promise<number> {
  const api = await apiAs(request, baseURL, who);
  try {
    const rotations = (await (await api.get('/api/rotations')).json()) as {
      id: number;
      name: string;
    }[];
    const rotation = rotations.find((r) => r.name === rotationName);
    expect(rotation, rotationName).toBeTruthy();
    const raised = await api.post('/api/incidents', { data: { rotationId: rotation?.id, title } });
    expect(raised.status(), await raised.text()).toBe(201);
    return ((await raised.json()) as { id: number }).id;
  } finally {
    await api.dispose();
  }
}

/** signInPage gives the page the account's session cookies, without opening anything. */
export async function signInPage(page: Page, request: APIRequest, baseURL: string, who: Account) {
  const state = await sessionOf(request, baseURL, who);
  await page.context().clearCookies();
  await page.context().addCookies(state.cookies);
}

/** actAs makes the page the account's browser and opens the dashboard. */
export async function actAs(page: Page, request: APIRequest, baseURL: string, who: Account) {
  await signInPage(page, request, baseURL, who);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/** userIds returns the ids of the users who may be members, by email. */
export async function userIds(api: APIRequestContext): Promise<Map<string, number>> {
  const res = await api.get('/api/users/by-roles?roles=on-call,manager');
  expect(res.ok()).toBe(true);
  const users = (await res.json()) as { id: number; email: string }[];
  return new Map(users.map((u) => [u.email, u.id]));
}

/** createRotation creates a rotation through the API with the given members, in order. */
export async function createRotation(
  api: APIRequestContext,
  name: string,
  members: Account[],
  fields: Record<string, unknown> = {},
) {
  const res = await api.post('/api/rotations', {
    data: {
      name,
      description: 'Made by a browser test',
      cadence: 'daily',
      type: 'fixed',
      ...fields,
    },
  });
  expect(res.status()).toBe(201);
  const rotation = (await res.json()) as ApiRotation;
  const ids = await userIds(api);
  for (const [order, member] of members.entries()) {
    const added = await api.post(`/api/rotations/${rotation.id}/on-call`, {
      data: { userId: ids.get(member.email), order },
    });
    expect(added.ok()).toBe(true);
  }
  return rotation;
}

/** readRotation reads a rotation through the page's session. */
export async function readRotation(page: Page, id: number): Promise<ApiRotation> {
  const res = await page.request.get(`/api/rotations/${id}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as ApiRotation;
}

/** toast returns the toast line with exactly this text. */
export function toast(page: Page, text: string): Locator {
  return page.getByText(text, { exact: true }).first();
}

/** chooseOption opens the labelled select in `scope` and picks the option. */
export async function chooseOption(
  page: Page,
  scope: Locator | Page,
  label: string,
  option: string,
) {
  // Under a loaded machine a click can land while the list is still opening and be dropped (the
  // list stays open and hides the page from the accessibility tree): pick again until the select
  // shows the option, as a person would click again. While the list is open the select itself
  // cannot be found in a `scope` that is a dialog found by its role (the open list hides the
  // dialog), so whether to open it is read from the list, not from the select's aria-expanded.
  const box = scope.getByLabel(label);
  const list = page.getByRole('listbox');
  await expect(async () => {
    if (!(await list.isVisible())) await box.click({ timeout: 2_000 });
    await list.getByRole('option', { name: option, exact: true }).click({ timeout: 2_000 });
    await expect(list).toBeHidden({ timeout: 1_000 });
    await expect(box).toContainText(option, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}
