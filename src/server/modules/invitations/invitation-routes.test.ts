import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  cookieFrom,
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
} from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { hashToken } from '../../crypto/bearer-secrets';
import { auditEvents, invitations, notifications } from '../../db/schema';
import { decryptContent } from '../notifications/outbox';

let t: TestApp;
let admin: User;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ name: 'Ada Admin', roles: ['admin'] });
  adminCookie = await t.cookieFor(admin);
});
afterAll(() => t.close());

let n = 0;
const email = () => `invitee.${++n}.${Date.now()}@example.com`;

const invite = (body: unknown, cookie = adminCookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/invitations',
    payload: body as object,
    headers: { cookie },
  });
const list = (cookie = adminCookie) =>
  t.app.inject({ url: '/api/invitations', headers: { cookie } });
const validate = (token: string) =>
  t.app.inject({
    url: `/api/invitations/${token}/validate`,
    headers: { 'x-forwarded-for': `198.18.0.${(n % 250) + 1}` },
  });
const tokenOf = (inviteUrl: string) => inviteUrl.split('/invite/')[1];

describe('POST /api/invitations', () => {
  test('creates a pending invitation for 7 days, with a link to copy, and records it', async () => {
    const address = email();
    const res = await invite({ email: address, name: 'Nina New', role: 'manager' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      name: 'Nina New',
      email: address,
      role: 'manager',
      status: 'pending',
      expiresAt: new Date(t.clock.now().getTime() + 7 * 86_400_000).toISOString(),
    });
    expect(created.inviteUrl).toMatch(/^http:\/\/localhost(:80)?\/invite\/[\w-]{43}$/);

    // The token is stored only as a hash.
    const [row] = await t.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, created.id));
    expect(row.tokenHash).not.toContain(tokenOf(created.inviteUrl));
    expect(JSON.stringify(row)).not.toContain(address);

    // The link validates, and the list shows the same link again.
    const valid = await validate(tokenOf(created.inviteUrl));
    expect(valid.json().invitation).toMatchObject({ id: created.id, role: 'manager' });
    const listed = list();
    const again = (await listed).json().find((i: { id: number }) => i.id === created.id);
    expect(again.inviteUrl).toBe(created.inviteUrl);

    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(created.id)));
    expect(event).toMatchObject({
      action: 'user.invited',
      targetType: 'invitation',
      actorUserId: admin.id,
    });
  });

  test('emails the invitation link to the invitee through the outbox, in the same transaction', async () => {
    const address = email();
    const res = await invite({ email: address, name: 'Mia Mail', role: 'manager' });
    expect(res.statusCode).toBe(201);
    const sent = (
      await t.database.db.select().from(notifications).where(eq(notifications.kind, 'invitation'))
    )
      .map((row) => decryptContent(row, t.cipher))
      .filter((c) => c.to === address);
    expect(sent).toHaveLength(1);
    const content = sent[0];
    expect(content.text).toContain(res.json().inviteUrl);
    // A refused invitation leaves no email behind.
    const before = (await t.database.db.select().from(notifications)).length;
    expect((await invite({ email: address, name: 'Mia Mail', role: 'manager' })).statusCode).toBe(
      409,
    );
    expect(await t.database.db.select().from(notifications)).toHaveLength(before);
  });

  test('each invitation gets its own random token; the link the list shows validates', async () => {
    const made = [];
    for (const name of ['Rae Random', 'Ravi Random']) {
      const res = await invite({ email: email(), name, role: 'member' });
      expect(res.statusCode, res.body).toBe(201);
      made.push(res.json());
    }
    const tokens = made.map((m) => tokenOf(m.inviteUrl));
    expect(tokens[0]).not.toBe(tokens[1]);
    for (const token of tokens) expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const listed = (await list()).json() as { id: number; inviteUrl: string | null }[];
    for (const m of made) {
      const item = listed.find((i) => i.id === m.id);
      expect(item?.inviteUrl).toBeTruthy();
      const valid = await validate(tokenOf(item?.inviteUrl ?? ''));
      expect(valid.statusCode, valid.body).toBe(200);
      expect(valid.json().invitation).toMatchObject({ id: m.id, name: m.name });
    }
  });

  test('an invitation from before random tokens keeps a working link, which cannot be shown again', async () => {
    const created = (await invite({ email: email(), name: 'Leo Legacy', role: 'member' })).json();
    const oldToken = 'derived-before-decision-110-aaaaaaaaaaaaaaa';
    await t.database.db
      .update(invitations)
      .set({ tokenHash: hashToken(oldToken), tokenEnc: null })
      .where(eq(invitations.id, created.id));
    const item = (await list()).json().find((i: { id: number }) => i.id === created.id);
    expect(item).toMatchObject({ status: 'pending', inviteUrl: null });
    const valid = await validate(oldToken);
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json().invitation.id).toBe(created.id);
  });

  test('with PUBLIC_URL, the email links to Baton there: the invitation and the way back', async () => {
    const publicUrl = 'https://baton.example.org/oncall';
    const behindProxy = await createTestApp({ env: { PUBLIC_URL: publicUrl } });
    try {
      const a = await behindProxy.createUser({ roles: ['admin'] });
      const res = await behindProxy.app.inject({
        method: 'POST',
        url: '/api/invitations',
        payload: { email: 'pia.public@example.com', name: 'Pia Public', role: 'manager' },
        headers: { cookie: await behindProxy.cookieFor(a) },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { inviteUrl } = res.json();
      expect(inviteUrl).toMatch(/^https:\/\/baton\.example\.org\/oncall\/invite\/[\w-]{43}$/);
      const [row] = await behindProxy.database.db
        .select()
        .from(notifications)
        .where(eq(notifications.kind, 'invitation'));
      const content = decryptContent(row, behindProxy.cipher);
      expect(content.text).toContain(`Accept the invitation: ${inviteUrl}`);
      expect(content.text).toContain(`Baton, ${publicUrl}`);
      expect(content.html).toContain(`<a href="${inviteUrl}"`);
      expect(content.html).toContain(`Sent by <a href="${publicUrl}"`);
      expect(`${content.text}${content.html}`).not.toContain('localhost');
    } finally {
      await behindProxy.close();
    }
  });

  test('the role defaults to member (On-Call)', async () => {
    const res = await invite({ email: email(), name: 'Dee Default' });
    expect(res.json().role).toBe('member');
  });

  test.each([
    [{ email: 'not-an-email', name: 'X', role: 'member' }, 'email', 'Invalid email address'],
    [
      { email: 'someone@other.org', name: 'X', role: 'member' },
      'email',
      'Email must be from the example.com domain',
    ],
    [{ email: 'x.name@example.com', name: '  ', role: 'member' }, 'name', 'Name is required'],
    [{ email: 'x.role@example.com', name: 'X', role: 'root' }, 'role', expect.any(String)],
    [{ email: 'x.role2@example.com', name: 'X', role: 'on-call' }, 'role', expect.any(String)],
  ])('refuses %j with a field error', async (body, field, message) => {
    const res = await invite(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toEqual(message);
  });

  test('refuses an address that already has a user, or a pending invitation (any letter case)', async () => {
    const existing = await t.createUser();
    const taken = await invite({
      email: existing.email.toUpperCase(),
      name: 'Dup',
      role: 'member',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('A user with this email address already exists.');

    const address = email();
    expect((await invite({ email: address, name: 'First', role: 'member' })).statusCode).toBe(201);
    const second = await invite({ email: address.toUpperCase(), name: 'Second', role: 'admin' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('An invitation is already pending for this email address.');
  });

  test('an expired invitation shows as expired and no longer blocks a new one', async () => {
    const address = email();
    const first = (await invite({ email: address, name: 'Late', role: 'member' })).json();
    t.clock.advance(7 * 86_400_000 + 1000);
    const expired = (await list()).json().find((i: { id: number }) => i.id === first.id);
    expect(expired).toMatchObject({ status: 'expired', inviteUrl: null });
    const gone = await validate(tokenOf(first.inviteUrl));
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toMatch(/expired/);
    const again = await invite({ email: address, name: 'Late', role: 'member' });
    expect(again.statusCode).toBe(201);
  });

  test('only administrators invite; forged identity headers change nothing', async () => {
    const manager = await t.createUser({ roles: ['manager'] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/invitations',
      payload: { email: email(), name: 'X', role: 'admin' },
      headers: {
        cookie: await t.cookieFor(manager),
        'x-user-id': String(admin.id),
        'x-user-role': 'admin',
      },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('accepting an invitation', () => {
  test('local sign-in of the invitee creates the user with the invited role; the link is single-use', async () => {
    const address = email();
    const created = (
      await invite({ email: address, name: 'Ivan Invitee', role: 'incident_manager' })
    ).json();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: address, password: TEST_PASSWORD },
      headers: { 'x-forwarded-for': '198.18.1.1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ name: 'Ivan Invitee', roles: ['incident_manager'] });
    cookieFrom(res.headers['set-cookie']);
    const used = await validate(tokenOf(created.inviteUrl));
    expect(used.statusCode).toBe(404);
    expect(used.json().message).toBe('This invitation has already been used.');
    const row = (await list()).json().find((i: { id: number }) => i.id === created.id);
    expect(row).toMatchObject({ status: 'accepted', inviteUrl: null });
  });

  test('validation is rate limited per client: 30 a minute, then 429 in the one error shape', async () => {
    const check = (address: string) =>
      t.app.inject({
        url: `/api/invitations/${'y'.repeat(43)}/validate`,
        headers: { 'x-forwarded-for': address },
      });
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push((await check('198.18.9.9')).statusCode);
    expect(codes.every((c) => c === 404)).toBe(true);
    const limited = await check('198.18.9.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: expect.stringMatching(/^Too many attempts\. Try again in \d+ seconds\.$/),
      code: 'RATE_LIMITED',
    });
    expect((await check('198.18.9.10')).statusCode).toBe(404);
  });

  test('an unknown token answers a message', async () => {
    const res = await validate('x'.repeat(43));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/Invalid invitation link/);
  });
});

describe('GET and DELETE /api/invitations', () => {
  test('lists newest first in a fixed number of queries, whatever the count', async () => {
    let queries = 0;
    const counted = await createTestApp({ db: { onQuery: () => queries++ } });
    try {
      const a = await counted.createUser({ roles: ['admin'] });
      const cookie = await counted.cookieFor(a);
      const make = (i: number) =>
        counted.app.inject({
          method: 'POST',
          url: '/api/invitations',
          payload: { email: `count.${i}@example.com`, name: `Count ${i}`, role: 'member' },
          headers: { cookie },
        });
      await make(1);
      queries = 0;
      await counted.app.inject({ url: '/api/invitations', headers: { cookie } });
      const few = queries;
      for (let i = 2; i < 8; i++) {
        counted.clock.advance(1000);
        await make(i);
      }
      queries = 0;
      const res = await counted.app.inject({ url: '/api/invitations', headers: { cookie } });
      expect(queries).toBe(few);
      expect(
        res
          .json()
          .map((i: { name: string }) => i.name)
          .slice(0, 2),
      ).toEqual(['Count 7', 'Count 6']);
    } finally {
      await counted.close();
    }
  });

  test('deletes an invitation (its link stops working) and records it; 404 for a missing one', async () => {
    const created = (await invite({ email: email(), name: 'Gone Soon', role: 'member' })).json();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/invitations/${created.id}`,
      headers: { cookie: adminCookie },
    });
    expect(res.statusCode).toBe(200);
    expect((await validate(tokenOf(created.inviteUrl))).statusCode).toBe(404);
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'invitation.deleted'));
    expect(event).toMatchObject({ targetId: String(created.id), actorUserId: admin.id });
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/invitations/${created.id}`,
      headers: { cookie: adminCookie },
    });
    expect(again.statusCode).toBe(404);
  });
});
