import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type ChatReceiver, startChatReceiver } from '../../../../tests/setup/chat-receivers';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { DestinationCreated } from '../../../shared/contracts/destinations';
import type { User } from '../../../shared/contracts/users';
import { destinations, notifications } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import type { Channels } from '../notifications/channels';
import { tellFailingOwners } from '../notifications/destination-failures';
import { deliverDue } from '../notifications/outbox';
import { createChatChannel, destinationRule } from './chat-channel';

/*
 * The destination suites' shared set-up: one app with the cast, a loopback Slack, Teams and
 * webhook receiver, and the outbox's chat channel. Each suite calls `setUpDestinationSuite()`
 * once; its hooks set the bindings below (an import sees them as they are now), since the files
 * of a worker share this module (decision 230).
 */

export const START = '2026-11-02T12:00:00Z';

export let t: TestApp;
export let slack: ChatReceiver;
export let teams: ChatReceiver;
export let hook: ChatReceiver;
let channels: Channels;
export const people = {} as Record<
  'manager' | 'otherManager' | 'olivia' | 'noah' | 'admin' | 'outsider',
  User
>;

/** setUpDestinationSuite registers the suite's hooks: the app and receivers, emptied per test. */
export function setUpDestinationSuite() {
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://baton.example.com' } });
    Object.assign(
      people,
      await t.cast({
        manager: {},
        otherManager: {},
        olivia: {},
        noah: {},
        admin: {},
        outsider: {},
      }),
    );
    slack = await startChatReceiver('slack');
    teams = await startChatReceiver('teams');
    hook = await startChatReceiver('webhook');
    channels = {
      chat: createChatChannel({
        db: t.database.db,
        cipher: t.cipher,
        clock: t.clock,
        timeoutMs: 2_000,
        rule: destinationRule(t.config),
        onFailure: async (id, now) => {
          await tellFailingOwners(t.database.db, { cipher: t.cipher }, now, id);
        },
      }),
    };
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([slack.close(), teams.close(), hook.close()]);
  });
  beforeEach(async () => {
    await t.database.db.delete(notifications);
    await t.database.db.delete(destinations);
    t.clock.set(START);
    for (const r of [slack, teams, hook]) {
      r.received.length = 0;
      r.failNext = 0;
      r.failing = false;
      r.attempts = 0;
      r.attemptIds.length = 0;
    }
  });
}

/** A rotation Morgan created, Olivia its holder and Noah its other member. */
export async function rotation() {
  return insertRotation(t.database.db, {
    name: `Platform ${Math.random().toString(36).slice(2, 7)}`,
    memberIds: [people.olivia.id, people.noah.id],
    holderId: people.olivia.id,
    createdById: people.manager.id,
    now: t.clock.now(),
  });
}

export async function create(
  user: User,
  body: Record<string, unknown>,
): Promise<DestinationCreated> {
  const res = await t.call(user, 'POST', '/api/destinations', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as DestinationCreated;
}

const deps = () => ({
  db: t.database.db,
  cipher: t.cipher,
  channels,
  clock: t.clock,
  random: () => 0.5,
});

/** deliverAll runs the outbox's chat loop until nothing is due now. */
export async function deliverAll() {
  for (let i = 0; i < 5; i += 1) {
    const r = await deliverDue(deps(), 50, 'chat');
    if (r.sent + r.failed + r.retrying === 0) return;
  }
}
