import type { CreateRotationInput, Rotation } from '../../../src/shared/contracts/rotations';
import { type ApiAnswer, api, signIn } from './processes';

/**
 * Seeding through the API, as an administrator would: invitations (each invitee signs in once,
 * which creates the user), rotations, members and the first holder.
 */

export interface Person {
  id: number;
  email: string;
  name: string;
  /** the session of the first sign-in */
  cookie: string;
}

/** ok returns the body of a 2xx answer and throws with the answer otherwise. */
export function ok<T>(answer: ApiAnswer<T>, what: string): T {
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

/**
 * invitePeople invites each person (as an administrator, at `url`) and signs them in at the URL
 * given for them, which creates the user.
 */
export async function invitePeople(
  url: string,
  adminCookie: string,
  people: { email: string; name: string; role?: string; signInAt?: string }[],
): Promise<Person[]> {
  const out: Person[] = [];
  for (const p of people) {
    ok(
      await api(url, 'POST', '/api/invitations', {
        cookie: adminCookie,
        body: { email: p.email, name: p.name, role: p.role ?? 'member' },
      }),
      `invite ${p.email}`,
    );
    const at = p.signInAt ?? url;
    const cookie = await signIn(at, p.email);
    const me = ok(
      await api<{ user: { id: number } }>(at, 'GET', '/api/auth/user', { cookie }),
      'me',
    );
    out.push({ id: me.user.id, email: p.email, name: p.name, cookie });
  }
  return out;
}

/**
 * createRotation creates a rotation, adds the members in order and, when given, makes `holderId`
 * the holder (assign-oncall); answers the rotation as GET /api/rotations/{id} then shows it.
 */
export async function createRotation(
  url: string,
  cookie: string,
  input: CreateRotationInput & { memberIds: number[]; holderId?: number | null },
): Promise<Rotation> {
  const { memberIds, holderId, ...create } = input;
  const created = ok(
    await api<Rotation>(url, 'POST', '/api/rotations', { cookie, body: create }),
    `create rotation ${input.name}`,
  );
  for (const userId of memberIds) {
    ok(
      await api(url, 'POST', `/api/rotations/${created.id}/on-call`, { cookie, body: { userId } }),
      `add member ${userId} to ${input.name}`,
    );
  }
  if (holderId !== undefined && holderId !== null) {
    ok(
      await api(url, 'POST', `/api/rotations/${created.id}/assign-oncall`, {
        cookie,
        body: { toUserId: holderId },
      }),
      `assign ${holderId} on ${input.name}`,
    );
  }
  return ok(
    await api<Rotation>(url, 'GET', `/api/rotations/${created.id}`, { cookie }),
    'read rotation',
  );
}
