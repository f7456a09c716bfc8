import { z } from 'zod';
import {
  MAX_RULE_DELAY_MINUTES,
  MAX_RULES_PER_URGENCY,
  NOTIFICATION_METHODS,
  type RuleUrgency,
} from '../domain/notification-rules';

/**
 * A person's notification rules (issue 33, decision 251): `PUT /api/users/{id}/notification-rules`
 * takes `{ high, low }`, each a list of `{ method, delayMinutes }`; `GET` answers the same with
 * `own` (false: the rules the person's Notification Preference means, they have none of their
 * own). `DELETE` returns a person to their preference.
 */

const METHOD_MESSAGE = `Choose one of ${NOTIFICATION_METHODS.join(', ')}`;
const DELAY_MESSAGE = `The delay is a whole number of minutes from 0 to ${MAX_RULE_DELAY_MINUTES}`;

export const NotificationRuleSchema = z.object({
  method: z.enum(NOTIFICATION_METHODS, { error: METHOD_MESSAGE }),
  delayMinutes: z
    .number({ error: DELAY_MESSAGE })
    .int(DELAY_MESSAGE)
    .min(0, DELAY_MESSAGE)
    .max(MAX_RULE_DELAY_MINUTES, DELAY_MESSAGE),
});

const URGENCY_NAMES: Record<RuleUrgency, string> = { high: 'high', low: 'low' };

const rulesOf = (urgency: RuleUrgency) =>
  z
    .array(NotificationRuleSchema, {
      error: `The ${URGENCY_NAMES[urgency]} urgency rules are a list`,
    })
    .min(1, `Add at least one rule for ${URGENCY_NAMES[urgency]} urgency`)
    .max(
      MAX_RULES_PER_URGENCY,
      `At most ${MAX_RULES_PER_URGENCY} rules for ${URGENCY_NAMES[urgency]} urgency`,
    );

export const NotificationRulesSchema = z.object({ high: rulesOf('high'), low: rulesOf('low') });
export type NotificationRulesInput = z.infer<typeof NotificationRulesSchema>;

export const NotificationRulesAnswerSchema = NotificationRulesSchema.extend({
  /** true: the person's own rules; false: the rules their Notification Preference means */
  own: z.boolean(),
  /** whether this server places calls (Twilio configured, decision 252): else they are skipped */
  voiceReady: z.boolean(),
});
export type NotificationRulesAnswer = z.infer<typeof NotificationRulesAnswerSchema>;
