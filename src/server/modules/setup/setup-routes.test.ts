import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeTwilio } from '../../../../tests/setup/fake-twilio';
import { startSmtpServer } from '../../../../tests/setup/smtp-server';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { EscalationPolicy } from '../../../shared/contracts/escalation-policies';
import type { SetupChecklist, TestPageResult } from '../../../shared/contracts/setup';
import type { User } from '../../../shared/contracts/users';

/**
 * The setup checklist (issue 35, decision 258) through the app, from an empty install (one
 * administrator) to a test page over the loopback SMTP server and the fake Twilio: each step
 * ticked from the rows the server holds, the dismissal kept per administrator. PGlite, and
 * PostgreSQL with TEST_DATABASE_URL.
 */

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let admin: User;

beforeAll(async () => {
  smtp = await startSmtpServer();
  twilio = await startFakeTwilio();
  t = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: '+15550000000',
      TWILIO_API_BASE: twilio.apiBase,
    },
  });
  admin = await t.createUser({ name: 'Ada Admin', roles: ['admin'] });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await twilio.close();
});

async function checklist(user: User = admin): Promise<SetupChecklist> {
  const res = await t.call(user, 'GET', '/api/setup');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const done = (list: SetupChecklist) =>
  Object.fromEntries(list.steps.map((s) => [s.id, s.done])) as Record<string, boolean>;
const step = (list: SetupChecklist, id: string) => list.steps.find((s) => s.id === id);

describe('from an empty install to a test page', () => {
  test('an empty install: nothing done, each step linking to the screen that does it', async () => {
    const list = await checklist();
    expect(list.dismissed).toBe(false);
    expect(list.complete).toBe(false);
    expect(list.steps.map((s) => [s.id, s.done, s.href])).toEqual([
      ['invite', false, '/admin/users'],
      ['people', false, '/admin/users'],
      ['rotation', false, '/rotations/new'],
      ['policy', false, '/escalation-policies'],
      ['integration', false, '/rotations'],
      ['test-page', false, '/profile'],
    ]);
    expect(step(list, 'people')?.detail).toBe(
      'With a phone number and a time zone other than UTC on their profile: 0 of 1 person.',
    );
  });

  test('an invitation ticks "invite", and counts as someone still to add a phone', async () => {
    const res = await t.call(admin, 'POST', '/api/invitations', {
      email: 'noor.new@example.com',
      name: 'Noor New',
      role: 'member',
    });
    expect(res.statusCode, res.body).toBe(201);
    const list = await checklist();
    expect(done(list)).toMatchObject({ invite: true, people: false });
    expect(step(list, 'invite')?.detail).toBe('1 account, 1 invitation not yet accepted.');

    // The administrator's own phone and zone, saved with the profile API.
    const saved = await t.call(admin, 'PATCH', `/api/users/${admin.id}`, {
      phone: '+1 555 010 0001',
      timezone: 'Europe/Paris',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(step(await checklist(), 'people')?.detail).toBe(
      'With a phone number and a time zone other than UTC on their profile: 1 of 2 people (counting 1 invitation not yet accepted).',
    );
  });

  test('"people" is done when every account has a phone and a zone other than UTC, and no invitation waits', async () => {
    const list = await t.call(admin, 'GET', '/api/invitations');
    for (const invitation of list.json() as { id: number }[]) {
      expect((await t.call(admin, 'DELETE', `/api/invitations/${invitation.id}`)).statusCode).toBe(
        200,
      );
    }
    // Someone still on the default zone is not ready, even with a phone.
    const noor = await t.createUser({
      name: 'Noor New',
      roles: ['on-call'],
      phone: '+15550100002',
    });
    expect(done(await checklist())).toMatchObject({ invite: true, people: false });
    const saved = await t.call(noor, 'PATCH', `/api/users/${noor.id}`, {
      timezone: 'America/Chicago',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(done(await checklist())).toMatchObject({ invite: true, people: true });
  });

  test('a rotation with members ticks "rotation"; its untouched default policy does not tick "policy"', async () => {
    // A rotation made empty is not enough.
    const empty = await t.call(admin, 'POST', '/api/rotations', {
      name: 'Empty for now',
      description: '',
      type: 'fixed',
    });
    expect(empty.statusCode, empty.body).toBe(201);
    expect(done(await checklist()).rotation).toBe(false);

    const users = (await t.call(admin, 'GET', '/api/users')).json() as User[];
    const res = await t.call(admin, 'POST', '/api/rotations', {
      name: 'Payments',
      description: '',
      type: 'fixed',
      memberIds: users.map((u) => u.id),
    });
    expect(res.statusCode, res.body).toBe(201);
    const rotation = (await t.call(admin, 'GET', `/api/rotations/${res.json().id}`)).json() as {
      id: number;
      escalationPolicyId: number;
    };
    const list = await checklist();
    expect(done(list)).toMatchObject({ rotation: true, policy: false, integration: false });
    expect(step(list, 'rotation')?.href).toBe(`/rotations/${rotation.id}`);
    expect(step(list, 'policy')?.href).toBe(`/escalation-policies/${rotation.escalationPolicyId}`);
    expect(step(list, 'integration')?.href).toBe(`/rotations/${rotation.id}`);

    // Saving the default policy unchanged leaves it Baton's; a step of one's own ticks it.
    const policyUrl = `/api/escalation-policies/${rotation.escalationPolicyId}`;
    const policy = (await t.call(admin, 'GET', policyUrl)).json() as EscalationPolicy;
    const same = await t.call(admin, 'PATCH', policyUrl, { steps: policy.steps });
    expect(same.statusCode, same.body).toBe(200);
    expect(done(await checklist()).policy).toBe(false);
    const steps = [
      ...policy.steps,
      { delayMinutes: 30, targets: [{ type: 'user', id: admin.id }], assignment: 'everyone' },
    ];
    const own = await t.call(admin, 'PATCH', policyUrl, { steps });
    expect(own.statusCode, own.body).toBe(200);
    expect(done(await checklist()).policy).toBe(true);

    const integration = await t.call(admin, 'POST', '/api/integrations', {
      name: 'Alertmanager',
      rotationId: rotation.id,
    });
    expect(integration.statusCode, integration.body).toBe(201);
    const after = await checklist();
    expect(done(after)).toMatchObject({ integration: true, 'test-page': false });
    expect(after.complete).toBe(false);
  });

  test('"Send a test page to me" reaches the administrator by email and SMS and finishes the list', async () => {
    const res = await t.call(admin, 'POST', '/api/setup/test-page');
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as TestPageResult;
    expect(answer.results).toEqual([
      { method: 'email', outcome: 'delivered', message: 'Test email sent' },
      { method: 'sms', outcome: 'delivered', message: 'Test SMS sent' },
    ]);
    expect(answer.checklist.complete).toBe(true);
    expect(smtp.received.some((m) => m.to.includes(admin.email))).toBe(true);
    expect(twilio.sent.map((s) => s.to)).toContain('+15550100001');
    expect(await checklist()).toEqual(answer.checklist);

    // One a minute.
    const again = await t.call(admin, 'POST', '/api/setup/test-page');
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ code: 'RATE_LIMITED' });
    t.clock.advance(61_000);
    expect((await t.call(admin, 'POST', '/api/setup/test-page')).statusCode).toBe(200);
  });

  test('dismissing hides it for that administrator only', async () => {
    const other = await t.createUser({ name: 'Bo Admin', roles: ['admin'] });
    const res = await t.call(admin, 'POST', '/api/setup/dismiss');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as SetupChecklist).dismissed).toBe(true);
    expect((await checklist()).dismissed).toBe(true);
    const theirs = await checklist(other);
    expect(theirs.dismissed).toBe(false);
    // The test page is each administrator's own.
    expect(done(theirs)['test-page']).toBe(false);
  });
});

test('a test page to an administrator without a phone goes by email, and says why not by SMS', async () => {
  const lone = await t.createUser({ name: 'Lee Lone', roles: ['admin'] });
  const res = await t.call(lone, 'POST', '/api/setup/test-page');
  expect(res.statusCode, res.body).toBe(200);
  const { results, checklist: list } = res.json() as TestPageResult;
  expect(results[0]).toEqual({ method: 'email', outcome: 'delivered', message: 'Test email sent' });
  expect(results[1]).toMatchObject({ method: 'sms', outcome: 'not-set-up' });
  expect(done(list)['test-page']).toBe(true);
});
