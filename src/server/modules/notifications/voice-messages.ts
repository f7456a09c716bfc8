import type { RULED_KINDS } from './outbox';
import type { PersonEvent, PersonEventOf, ToldOf } from './person-events';

/**
 * The phone call's renderers (decision 252): what a call says of each event that pages a person
 * (`RULED_KINDS`: only a notification rule places a call), typed per type so a new paging event
 * without words for a call does not compile. Plain words, no links or codes: the call gathers a
 * key instead (`voice-calls/voice-twiml.ts` adds what each key does, and escapes for TwiML).
 */

export type VoiceKind = (typeof RULED_KINDS)[number];

/** A call's renderer: the event, said to the one person it calls. */
export type VoiceRenderer<T extends VoiceKind> = (
  event: PersonEventOf<T>,
  told: ToldOf<T>,
) => string;

/** The longest page text a call reads out; a longer one is cut, the rest is on the incident. */
const MAX_SPOKEN_MESSAGE = 300;

/** spokenMessage: the page's words (its alert's summary when it has no text), cut for a call. */
function spokenMessage(e: PersonEventOf<VoiceKind>): string {
  const text = (e.message.trim() || e.alert?.event?.summary || 'No summary').replace(/\s+/g, ' ');
  return text.length > MAX_SPOKEN_MESSAGE ? `${text.slice(0, MAX_SPOKEN_MESSAGE - 3)}...` : text;
}

/** fromWhom: "from Ada Lovelace", or the alert's source, or nothing when nobody is known. */
function fromWhom(e: PersonEventOf<VoiceKind>): string {
  const name = e.pagerName ?? e.alert?.event?.source ?? null;
  return name && name.trim() !== '' ? `, from ${name.trim()}` : '';
}

/** pageSpeech: "This is Baton. A high urgency page for Payments, from Ada Lovelace: …". */
function pageSpeech(e: PersonEventOf<VoiceKind>, lead: string): string {
  return `This is Baton. ${lead} ${e.page.urgency} urgency page for ${e.rotation.name}${fromWhom(e)}: ${spokenMessage(e)}.`;
}

export const VOICE_MESSAGES: { [T in VoiceKind]: VoiceRenderer<T> } = {
  page: (e) => pageSpeech(e, 'A'),
  'page.reminder': (e) => pageSpeech(e, 'A reminder of a'),
  'page.escalated': (e) => pageSpeech(e, 'Escalated to you: a'),
};

/** voiceTextOf: what a call says of a person event, or undefined for one a call never carries. */
export function voiceTextOf(
  event: PersonEvent,
  told: PersonEvent['told'][number],
): string | undefined {
  if (!(event.type in VOICE_MESSAGES)) return undefined;
  // The renderer is the event's own type's (as in personMessageOf).
  const render = VOICE_MESSAGES[event.type as VoiceKind] as VoiceRenderer<VoiceKind>;
  return render(event as never, told as never);
}
