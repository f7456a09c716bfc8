import {
  type SetupChecklist,
  TEST_PAGE_INTERVAL_MS,
  type TestPageResult,
} from '../../../shared/contracts/setup';
import type { User } from '../../../shared/contracts/users';
import { setupSteps } from '../../../shared/domain/setup-checklist';
import type { Clock } from '../../core/clock';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { AppError, notFound } from '../../http/errors';
import { type TestSendContext, testSenders } from '../notifications/test-senders';
import { findUsers } from '../users/user-repository';
import { markSetup, readSetupFacts } from './setup-repository';

/**
 * The setup checklist (issue 35, decision 258): read for an administrator from the install's rows,
 * dismissed per administrator, and its last step, a test page to oneself by email and SMS through
 * the channels "Send a test" uses (decision 254).
 */

export interface SetupDeps {
  db: Db;
  cipher: FieldCipher;
  clock: Clock;
  /** what the test senders send with (`testSendContextOf`) */
  send: Omit<TestSendContext, 'person' | 'deviceId'>;
}

/** The ways a test page goes: the two every install can have (a call or a push is on the profile). */
const TEST_PAGE_METHODS = ['email', 'sms'] as const;

/** readChecklist answers the checklist for the administrator `actor`. */
export async function readChecklist(deps: SetupDeps, actor: User): Promise<SetupChecklist> {
  const now = deps.clock.now();
  const { facts, dismissed } = await readSetupFacts(deps.db, actor.id, now);
  const steps = setupSteps(facts);
  return { dismissed, complete: steps.every((s) => s.done), steps };
}

/** dismissChecklist hides the checklist for the administrator `actor`, and answers it. */
export async function dismissChecklist(deps: SetupDeps, actor: User): Promise<SetupChecklist> {
  await deps.db.transaction((tx) => markSetup(tx, actor.id, 'dismissedAt', deps.clock.now()));
  return readChecklist(deps, actor);
}

/**
 * testPageSender returns "Send a test page to me": a test by email and by SMS to the
 * administrator at once, each way's outcome, and the step ticked when one reached them. One a
 * minute per person, counted on this instance (a test goes only to oneself, so a second instance
 * allowing one more is harmless); more is a 429. A test that sent nothing does not count.
 */
export function testPageSender(deps: SetupDeps) {
  const lastSent = new Map<number, number>();
  return async (actor: User): Promise<TestPageResult> => {
    const now = deps.clock.now().getTime();
    const last = lastSent.get(actor.id);
    if (last !== undefined && now - last < TEST_PAGE_INTERVAL_MS) {
      const seconds = Math.ceil((last + TEST_PAGE_INTERVAL_MS - now) / 1000);
      throw new AppError(
        'RATE_LIMITED',
        `One test page a minute: try again in ${seconds} seconds.`,
      );
    }
    const person = (await findUsers(deps.db, deps.cipher, [actor.id])).get(actor.id);
    if (!person) throw notFound('User not found');
    lastSent.set(actor.id, now);
    const results = [];
    for (const method of TEST_PAGE_METHODS) {
      results.push(await testSenders[method]({ ...deps.send, person }));
    }
    if (results.every((r) => r.outcome === 'not-set-up')) lastSent.delete(actor.id);
    if (results.some((r) => r.outcome === 'delivered')) {
      await deps.db.transaction((tx) => markSetup(tx, actor.id, 'testPageAt', deps.clock.now()));
    }
    return { results, checklist: await readChecklist(deps, actor) };
  };
}
