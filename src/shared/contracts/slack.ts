import { z } from 'zod';

/**
 * What Slack posts to Baton's Slack app (issue 19, decision 222), form-encoded and signed. Only the
 * fields Baton reads are named; Slack sends many more, kept unread (loose objects).
 */

/** The buttons of the messages about an incident and of a handoff message (their `action_id`). */
export const SLACK_ACTION_IDS = [
  'incident.acknowledge',
  'incident.resolve',
  'incident.escalate',
  'handoff.acknowledge',
] as const;
export type SlackActionId = (typeof SLACK_ACTION_IDS)[number];

/** The `block_id` of the actions block that carries Baton's buttons. */
export const SLACK_ACTIONS_BLOCK_ID = 'baton-actions';

/** A Block Kit block as Slack echoes it back in `message.blocks`: kept as it came. */
export const SlackBlockSchema = z.looseObject({
  type: z.string(),
  block_id: z.string().optional(),
});
export type SlackBlock = z.infer<typeof SlackBlockSchema>;

const slackId = z.string().regex(/^[A-Z0-9]{2,32}$/, 'must be a Slack id');

/** The `payload` field of an interaction Baton answers: a click on one of its buttons. */
export const SlackBlockActionsSchema = z.looseObject({
  type: z.literal('block_actions'),
  user: z.looseObject({ id: slackId }),
  response_url: z.url().optional(),
  message: z
    .looseObject({
      text: z.string().optional(),
      blocks: z.array(SlackBlockSchema).optional(),
    })
    .optional(),
  actions: z
    .array(
      z.looseObject({
        action_id: z.string().max(255),
        block_id: z.string().max(255).optional(),
        value: z.string().max(2000).optional(),
      }),
    )
    .min(1),
});
export type SlackBlockActions = z.infer<typeof SlackBlockActionsSchema>;

/** The form Slack posts to `POST /api/slack/interactions`: one field, `payload`, holding JSON. */
export const SlackInteractionFormSchema = z.looseObject({
  payload: z.string({ error: 'payload is required' }).min(2, 'payload is required'),
});

/** The form Slack posts to `POST /api/slack/commands` when someone types `/baton …`. */
export const SlackCommandFormSchema = z.looseObject({
  command: z.string().max(64),
  text: z.string().max(4000).default(''),
  user_id: slackId,
  response_url: z.url().optional(),
});
export type SlackCommandForm = z.infer<typeof SlackCommandFormSchema>;

/** A message Baton answers or posts to a `response_url` (Slack's message payload, the part used). */
export const SlackMessageSchema = z.object({
  response_type: z.enum(['ephemeral', 'in_channel']).optional(),
  replace_original: z.boolean().optional(),
  text: z.string(),
  blocks: z.array(SlackBlockSchema).optional(),
});
export type SlackMessage = z.infer<typeof SlackMessageSchema>;
