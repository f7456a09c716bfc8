import { describe, expect, test } from 'vitest';
import {
  CALL_GOODBYE,
  CALL_KEYS_WORDS,
  callTwiml,
  emptyTwiml,
  hangUp,
  sayAndHangUp,
} from './voice-twiml';

const GATHER = 'https://baton.example.test/api/twilio/voice/7/tok-en_1/gather';
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

describe("a call's TwiML", () => {
  test('the page and its keys, once more with no key, then goodbye and the call ends', () => {
    const xml = callTwiml(
      'This is Baton. A high urgency page for Payments: Checkout is down.',
      GATHER,
    );
    const gather = `<Gather input="dtmf" numDigits="1" timeout="6" action="${GATHER}" method="POST">`;
    expect(xml).toBe(
      `${HEAD}<Response>` +
        `${gather}<Say voice="alice">This is Baton. A high urgency page for Payments: Checkout is down. ${CALL_KEYS_WORDS}</Say></Gather>` +
        `${gather}<Say voice="alice">Again. This is Baton. A high urgency page for Payments: Checkout is down. ${CALL_KEYS_WORDS}</Say></Gather>` +
        `<Say voice="alice">${CALL_GOODBYE}</Say><Hangup/></Response>`,
    );
    expect(CALL_KEYS_WORDS).toBe(
      'Press 1 to acknowledge. Press 2 to escalate to the next step. Press 3 to hear this again.',
    );
  });

  test('what a page says is escaped, and so is the action', () => {
    const xml = callTwiml('<Hangup/> & "quotes" \'too\'', 'https://b.test/x?a=1&b=2');
    expect(xml).toContain('&lt;Hangup/&gt; &amp; &quot;quotes&quot; &apos;too&apos;');
    expect(xml).toContain('action="https://b.test/x?a=1&amp;b=2"');
    expect(xml.match(/<Hangup\/>/g)).toHaveLength(1);
  });

  test('an answer to a key, a machine, a status', () => {
    expect(sayAndHangUp('Acknowledged. Goodbye.')).toBe(
      `${HEAD}<Response><Say voice="alice">Acknowledged. Goodbye.</Say><Hangup/></Response>`,
    );
    expect(hangUp()).toBe(`${HEAD}<Response><Hangup/></Response>`);
    expect(emptyTwiml()).toBe(`${HEAD}<Response></Response>`);
  });
});
