import { DeliveryError } from '../../core/delivery';

/** What reaches Twilio's REST API: the account, its token and the API's base address. */
export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  /** https://api.twilio.com, or a loopback server in tests (TWILIO_API_BASE) */
  apiBase: string;
}

/**
 * postToTwilio creates a Message or a Call (`resource`) through Twilio's REST API with HTTP Basic
 * authentication, and answers the new resource's sid. 429 and 5xx are worth retrying; other 4xx
 * (a bad number, bad credentials) are not. `what` names the provider in errors ("SMS", "Call").
 * Twilio documents no deduplication by I-Twilio-Idempotency-Token: a repeat after a lost answer
 * is delivered again (decision 006); a proxy or provider that deduplicates can use it.
 */
export async function postToTwilio(
  account: TwilioAccount,
  resource: 'Messages' | 'Calls',
  body: URLSearchParams,
  options: { idempotencyKey?: string; timeoutMs: number; what: string },
): Promise<string> {
  const url = `${account.apiBase}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}/${resource}.json`;
  const auth = Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64');
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${auth}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...(options.idempotencyKey ? { 'I-Twilio-Idempotency-Token': options.idempotencyKey } : {}),
      },
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (err) {
    throw new DeliveryError(
      `${options.what} provider unreachable: ${(err as Error).message}`,
      false,
    );
  }
  const text = await res.text().catch(() => '');
  if (res.ok) {
    try {
      return String((JSON.parse(text) as { sid?: string }).sid ?? text.slice(0, 200));
    } catch {
      return text.slice(0, 200);
    }
  }
  const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
  throw new DeliveryError(
    `${options.what} provider answered ${res.status}`,
    permanent,
    text.slice(0, 500),
  );
}
