import type { ChatMessage } from './chat-messages';

/**
 * webhookBody writes a message as the generic webhook's event: `{ type, timestamp, data }`, JSON
 * (serialising escapes it), the facts only, no text.
 */
export function webhookBody(message: ChatMessage): object {
  return { type: message.type, timestamp: message.at.toISOString(), data: message.data };
}
