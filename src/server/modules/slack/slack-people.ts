import type { User } from '../../../shared/contracts/users';
import type { AppDeps } from '../../core/deps';
import { publicBaseUrl } from '../notifications/messages';
import { findUserRowByEmail, toUser } from '../users/user-repository';
import { slackPerson } from './slack-api';

/** How long a Slack user's confirmed email is remembered (decision 222). */
export const SLACK_EMAIL_MEMORY_MS = 5 * 60_000;
/** At most this many Slack users are remembered at once; the oldest go first. */
const SLACK_EMAIL_MEMORY_SIZE = 1_000;

export const SLACK_PEOPLE_MESSAGES = {
  unknown: (email: string, baseUrl: string) =>
    `Baton knows no one with ${email}, the email of your Slack profile. Sign in to Baton (${baseUrl}) with that email, then try again. Nothing changed.`,
  unconfirmed:
    'Baton acts only for a Slack account with a confirmed email: confirm yours in Slack, sign in to Baton with it, then try again. Nothing changed.',
  unavailable: 'Slack did not say who you are in time. Nothing changed: try again in a moment.',
} as const;

/** Who a Slack user is in Baton: a Baton user, or the ephemeral words to answer instead. */
export type SlackIdentity = { kind: 'user'; user: User } | { kind: 'refused'; message: string };

/**
 * SlackPeople maps a Slack user to a Baton user (decision 222): the confirmed email users.info
 * answers, matched through the email blind index. Identity comes from nothing else: no header, no
 * field of the payload but the signed user id. The email is remembered a few minutes (Slack's
 * answer is the slow part of a click); the Baton user is read afresh every time, so a deleted
 * person or a changed role counts at once.
 */
export class SlackPeople {
  private readonly emails = new Map<string, { email: string; until: number }>();

  constructor(private readonly deps: AppDeps) {}

  /**
   * identify returns the Baton user behind a Slack user id, or why Baton will not act for them;
   * `warn` hears why Slack gave no answer (a wrong token, a missing scope, a time-out).
   */
  async identify(slackUserId: string, warn?: (reason: string) => void): Promise<SlackIdentity> {
    const email = await this.emailOf(slackUserId, warn);
    if (typeof email !== 'string') return { kind: 'refused', message: email.message };
    const row = await findUserRowByEmail(this.deps.database.db, this.deps.cipher, email);
    if (!row) {
      return {
        kind: 'refused',
        message: SLACK_PEOPLE_MESSAGES.unknown(email, publicBaseUrl(this.deps.config)),
      };
    }
    return { kind: 'user', user: toUser(row, this.deps.cipher) };
  }

  private async emailOf(
    slackUserId: string,
    warn?: (reason: string) => void,
  ): Promise<string | { message: string }> {
    const now = this.deps.clock.now().getTime();
    const known = this.emails.get(slackUserId);
    if (known && known.until > now) return known.email;
    this.emails.delete(slackUserId);
    const person = await slackPerson(this.deps.config.slack, slackUserId);
    if (person.kind === 'unconfirmed') return { message: SLACK_PEOPLE_MESSAGES.unconfirmed };
    if (person.kind === 'unavailable') {
      warn?.(person.reason);
      return { message: SLACK_PEOPLE_MESSAGES.unavailable };
    }
    if (this.emails.size >= SLACK_EMAIL_MEMORY_SIZE) {
      const oldest = this.emails.keys().next().value;
      if (oldest !== undefined) this.emails.delete(oldest);
    }
    this.emails.set(slackUserId, { email: person.email, until: now + SLACK_EMAIL_MEMORY_MS });
    return person.email;
  }
}
