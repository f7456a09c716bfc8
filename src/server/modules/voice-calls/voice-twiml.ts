/**
 * The TwiML of a phone call (decision 252): what Twilio says and listens for. Pure: the words and
 * the URLs in, the document out. Every text is escaped for XML here, once.
 */

/** What each key does, said after the page. */
export const CALL_KEYS_WORDS =
  'Press 1 to acknowledge. Press 2 to escalate to the next step. Press 3 to hear this again.';
export const CALL_GOODBYE = 'Nobody pressed a key. Goodbye.';
/** Seconds a Gather waits for a key after its words. */
export const GATHER_TIMEOUT_SECONDS = 6;

const VOICE = 'alice';

export function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
  );
}

const document = (verbs: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${verbs}</Response>`;
const say = (words: string) => `<Say voice="${VOICE}">${escapeXml(words)}</Say>`;

/** gather: one key, posted to `action`; while it waits, the words are said. */
const gather = (action: string, words: string) =>
  `<Gather input="dtmf" numDigits="1" timeout="${GATHER_TIMEOUT_SECONDS}" action="${escapeXml(action)}" method="POST">${say(words)}</Gather>`;

/**
 * callTwiml: the call as it is answered: the page and the keys, listening for one; with no key,
 * the same once more; then goodbye and the call ends. A Gather with no key falls through to the
 * next verb (Twilio posts to its action only when a key was pressed).
 */
export function callTwiml(speech: string, gatherUrl: string): string {
  return document(
    [
      gather(gatherUrl, `${speech} ${CALL_KEYS_WORDS}`),
      gather(gatherUrl, `Again. ${speech} ${CALL_KEYS_WORDS}`),
      say(CALL_GOODBYE),
      '<Hangup/>',
    ].join(''),
  );
}

/** sayAndHangUp: words, then the call ends (a key's answer, a closed incident, a refusal). */
export function sayAndHangUp(words: string): string {
  return document(`${say(words)}<Hangup/>`);
}

/** hangUp: the call ends at once (an answering machine took it). */
export function hangUp(): string {
  return document('<Hangup/>');
}

/** emptyTwiml: nothing to do (the answer to a status callback). */
export function emptyTwiml(): string {
  return document('');
}
