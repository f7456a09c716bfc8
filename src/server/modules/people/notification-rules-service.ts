import type {
  NotificationRulesAnswer,
  NotificationRulesInput,
} from '../../../shared/contracts/notification-rules';
import type { User } from '../../../shared/contracts/users';
import type { NotificationPreference } from '../../../shared/domain/notification-routing';
import { phoneRuleProblem, preferenceRules } from '../../../shared/domain/notification-rules';
import { can } from '../../../shared/domain/permissions';
import type { Tx } from '../../db/client';
import { AppError, forbidden, notFound } from '../../http/errors';
import {
  lockUserRow,
  rulesOf,
  setNotificationRules,
  toUser,
  type UserRow,
} from '../users/user-repository';
import type { UserServiceDeps } from './people-service';

/**
 * A person's notification rules (issue 33, decision 251): read, set and returned to the
 * preference, by the person themselves or an administrator, each in one transaction holding the
 * person's row.
 */

const NOT_FOUND = 'User not found';

/** The rules as the service answers them; the routes add whether calls are ready. */
type RulesAnswer = Omit<NotificationRulesAnswer, 'voiceReady'>;

/** answerOf: a person's own rules, else the rules their Notification Preference means. */
function answerOf(row: UserRow, user: User): RulesAnswer {
  const own = rulesOf(row);
  if (own) return { ...own, own: true };
  const preference = user.notificationPreference as NotificationPreference;
  return { ...preferenceRules(preference, user.phone), own: false };
}

/** onRules runs `work` on the person's locked row: 403 for someone else's (not an admin), 404. */
async function onRules<T>(
  deps: UserServiceDeps,
  actor: User,
  id: number,
  work: (tx: Tx, row: UserRow, user: User) => Promise<T>,
): Promise<T> {
  if (id !== actor.id && !can(actor.roles, 'profile.editAny')) {
    throw forbidden('You can only see and change your own notification rules.');
  }
  return deps.db.transaction(async (tx) => {
    const row = await lockUserRow(tx, id);
    if (!row) throw notFound(NOT_FOUND);
    return work(tx, row, toUser(row, deps.cipher));
  });
}

/** readNotificationRules answers a person's rules, own or their preference's. */
export function readNotificationRules(
  deps: UserServiceDeps,
  actor: User,
  id: number,
): Promise<RulesAnswer> {
  return onRules(deps, actor, id, async (_tx, row, user) => answerOf(row, user));
}

/**
 * putNotificationRules sets a person's own rules. A rule by SMS or call needs a usable phone on
 * file: a 400 naming the rule's method (`high.1.method`), nothing written.
 */
export function putNotificationRules(
  deps: UserServiceDeps,
  actor: User,
  id: number,
  rules: NotificationRulesInput,
): Promise<RulesAnswer> {
  return onRules(deps, actor, id, async (tx, _row, user) => {
    const fields: Record<string, string> = {};
    for (const urgency of ['high', 'low'] as const) {
      rules[urgency].forEach((rule, i) => {
        const problem = phoneRuleProblem(rule.method, user.phone);
        if (problem) fields[`${urgency}.${i}.method`] = problem;
      });
    }
    const [first] = Object.entries(fields);
    if (first) throw new AppError('VALIDATION_FAILED', `${first[0]}: ${first[1]}`, fields);
    const stored = { high: rules.high, low: rules.low };
    await setNotificationRules(tx, id, stored);
    return { ...stored, own: true };
  });
}

/** clearNotificationRules returns a person to their preference; answers the preference's rules. */
export function clearNotificationRules(
  deps: UserServiceDeps,
  actor: User,
  id: number,
): Promise<RulesAnswer> {
  return onRules(deps, actor, id, async (tx, row, user) => {
    await setNotificationRules(tx, id, null);
    return answerOf({ ...row, notificationRules: null }, user);
  });
}
