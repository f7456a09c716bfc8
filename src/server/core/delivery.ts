/**
 * The outbox's channel contract (decisions 102 and 241): what a sender is given and how it fails.
 * It lives below the modules so that a sender (the chat channel in destinations/, the token sync's
 * channel) implements it without importing notifications/, whose outbox drives every channel.
 */

/** A message ready for one channel. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** stable per notification: providers that honour it drop a repeated send */
  idempotencyKey?: string;
  /** a chat message's JSON body, posted as it is to its destination (decision 221) */
  body?: unknown;
}

/** Where a message is sent from: the outbox row (a call's callbacks name it, decision 252). */
export interface SendContext {
  notificationId: number;
}

/** DeliveryError is a failed send; `permanent` ones are not retried. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly providerResponse?: string,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export interface Channel {
  /**
   * chat: a destination's chat or webhook message (`to` is the destination's id, decision 221);
   * token-sync: a POST or DELETE to the token sync URL (decision 228); voice: a phone call
   * (decision 252); push: a person's pushes (`to` is their id, `body` the notice, decision 253)
   */
  readonly name: 'email' | 'sms' | 'voice' | 'chat' | 'token-sync' | 'push';
  /** sends one message and returns the provider's answer (message id) */
  send(message: OutgoingMessage, context?: SendContext): Promise<string>;
}
