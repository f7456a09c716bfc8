import type { DestinationKind } from '../../../shared/contracts/destinations';
import { type ChatContext, type ChatMessage, chatMessageOf } from './chat-messages';
import { slackBody } from './chat-slack';
import { teamsBody } from './chat-teams';
import { webhookBody } from './chat-webhook';
import type { NotificationEvent } from './events';

/**
 * The chat channel's registry (decision 241): for each kind of destination, the body it is posted.
 * Every event type is rendered once as a neutral chat message (`CHAT_MESSAGES`), then written in
 * the kind's body; the sender is the outbox's chat channel (`destinations/chat-channel.ts`). A
 * kind missing here does not compile, and `channel-registry.test.ts` renders every event type
 * through every kind.
 */

/** A chat body writer: one kind of destination's wire body for a chat message. */
export type ChatBody = (message: ChatMessage) => object;

export const CHAT_BODIES: Record<DestinationKind, ChatBody> = {
  slack: (message) => slackBody(message, { buttons: true }),
  // Slack-compatible bodies; the buttons need Slack's interactivity, so they are left out.
  mattermost: (message) => slackBody(message, { buttons: false }),
  discord: (message) => slackBody(message, { buttons: false }),
  teams: teamsBody,
  webhook: webhookBody,
};

/** renderChat writes an event for one kind of destination: its type, title and body. */
export function renderChat(
  kind: DestinationKind,
  event: NotificationEvent,
  context: ChatContext,
): { type: string; title: string; body: object } {
  const message = chatMessageOf(event, context);
  return { type: message.type, title: message.title, body: CHAT_BODIES[kind](message) };
}
