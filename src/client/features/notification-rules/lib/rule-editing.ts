import type { NotificationRulesInput } from '@shared/contracts/notification-rules';
import { NotificationRulesSchema } from '@shared/contracts/notification-rules';
import type { NotificationRule, RuleUrgency } from '@shared/domain/notification-rules';

/*
 * The rules editor's pure steps (decision 251): move, add and remove a rule, and the form's
 * problems by field (`high.1.delayMinutes`), from the contract's own schema or the server's 400.
 */

export type EditedRules = Record<RuleUrgency, NotificationRule[]>;

/** moved returns the list with the rule at `index` moved by `by` (−1 up, +1 down). */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}

/** nextRule: the rule Add appends: email, a minute after the last rule (at most an hour). */
export function nextRule(list: readonly NotificationRule[]): NotificationRule {
  const last = list.at(-1);
  return { method: 'email', delayMinutes: last ? Math.min(last.delayMinutes + 1, 60) : 0 };
}

/** problemsOf: the contract's refusals of the edited rules, by field; empty when they are good. */
export function problemsOf(rules: EditedRules): Record<string, string> {
  const parsed = NotificationRulesSchema.safeParse(rules);
  if (parsed.success) return {};
  const problems: Record<string, string> = {};
  for (const issue of parsed.error.issues) problems[issue.path.join('.')] ??= issue.message;
  return problems;
}

/** asInput: the edited rules as the PUT body. */
export const asInput = (rules: EditedRules): NotificationRulesInput => ({
  high: rules.high,
  low: rules.low,
});
