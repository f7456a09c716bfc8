import { z } from 'zod';
import type { SlackMessage } from '../../../shared/contracts/slack';
import { isLoopbackHost } from '../../core/config';
import type { HostLookup, OutboundRule } from '../../http/outbound-address';
import { sendOutbound } from '../../http/outbound-request';

/**
 * The two calls Baton makes to Slack (decision 222): `users.info`, to learn who clicked, and the
 * POST to an interaction's `response_url`, to change the message or answer only the clicker.
 */

/** How long Baton waits for users.info: Slack wants its answer within 3 s of the click. */
export const USERS_INFO_TIMEOUT_MS = 2_000;
/** How long the message update may take (after Baton has answered Slack). */
export const RESPONSE_URL_TIMEOUT_MS = 5_000;

const UsersInfoSchema = z.looseObject({
  ok: z.boolean(),
  error: z.string().optional(),
  user: z
    .looseObject({
      deleted: z.boolean().optional(),
      is_bot: z.boolean().optional(),
      is_email_confirmed: z.boolean().optional(),
      profile: z.looseObject({ email: z.string().optional() }).optional(),
    })
    .optional(),
});

/** What users.info says of a Slack user: a confirmed email of a person, or why not. */
export type SlackPerson =
  | { kind: 'person'; email: string }
  | { kind: 'unconfirmed' }
  | { kind: 'unavailable'; reason: string };

/**
 * slackPerson asks Slack's `users.info` who `slackUserId` is. Only a live human with a confirmed
 * email counts (`users:read.email`); a bot, a deactivated account or an unconfirmed address is
 * 'unconfirmed'; no answer within USERS_INFO_TIMEOUT_MS, or an error, is 'unavailable'.
 */
export async function slackPerson(
  slack: { apiUrl: string; botToken?: string },
  slackUserId: string,
): Promise<SlackPerson> {
  if (!slack.botToken) return { kind: 'unavailable', reason: 'no bot token' };
  let body: unknown;
  try {
    const res = await fetch(`${slack.apiUrl}/users.info?user=${encodeURIComponent(slackUserId)}`, {
      headers: { authorization: `Bearer ${slack.botToken}` },
      signal: AbortSignal.timeout(USERS_INFO_TIMEOUT_MS),
    });
    if (!res.ok) return { kind: 'unavailable', reason: `HTTP ${res.status}` };
    body = await res.json();
  } catch (err) {
    return { kind: 'unavailable', reason: err instanceof Error ? err.name : 'error' };
  }
  const parsed = UsersInfoSchema.safeParse(body);
  if (!parsed.success) return { kind: 'unavailable', reason: 'unexpected answer' };
  if (!parsed.data.ok) return { kind: 'unavailable', reason: parsed.data.error ?? 'not ok' };
  const user = parsed.data.user;
  const email = user?.profile?.email?.trim();
  if (!user || user.deleted || user.is_bot || user.is_email_confirmed !== true || !email) {
    return { kind: 'unconfirmed' };
  }
  return { kind: 'person', email };
}

/**
 * isSlackResponseUrl tells whether Baton may post to a `response_url`: Slack's own https hooks,
 * and outside production a loopback address (the tests' Slack). The request was signed, so this is
 * defence in depth: Baton never posts where a forged payload would point it.
 */
export function isSlackResponseUrl(value: string, isProduction: boolean): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (
    url.protocol === 'https:' &&
    (url.hostname === 'slack.com' || url.hostname.endsWith('.slack.com'))
  ) {
    return true;
  }
  return (
    !isProduction &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    isLoopbackHost(url.hostname)
  );
}

/**
 * postToResponseUrl posts a message to an interaction's response_url through the guarded sender
 * (decision 234: the address rule at the connection, no redirect followed); throws when it fails.
 */
export async function postToResponseUrl(
  responseUrl: string,
  message: SlackMessage,
  outbound: { rule: OutboundRule; lookup?: HostLookup },
): Promise<void> {
  const { status } = await sendOutbound({
    url: responseUrl,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(message),
    timeoutMs: RESPONSE_URL_TIMEOUT_MS,
    ...outbound,
  });
  if (status < 200 || status >= 300) {
    throw new Error(`Slack answered HTTP ${status} to the message update`);
  }
}
