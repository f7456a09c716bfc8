/**
 * Phone calls (issue 33, decision 252): what a key pressed on a call does, and what a call came
 * to from Twilio's status callback. Pure: the words a timeline and a notification's failure read.
 */

/** Twilio's CallStatus values (Programmable Voice, the status callback and the TwiML request). */
export const CALL_STATUSES = [
  'queued',
  'initiated',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** What a call came to: answered by a person, or not delivered (and why). */
export const CALL_OUTCOMES = [
  'answered',
  'no-answer',
  'busy',
  'failed',
  'canceled',
  'machine',
] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** The keys a call listens for, and what each does. */
export const CALL_KEYS = { '1': 'acknowledge', '2': 'escalate', '3': 'repeat' } as const;
export type CallKey = keyof typeof CALL_KEYS;
export type CallKeyAction = (typeof CALL_KEYS)[CallKey];

/** callKeyOf: the key a Gather's Digits name, or null for none or any other key. */
export function callKeyOf(digits: string | null | undefined): CallKey | null {
  const key = (digits ?? '').trim();
  return key === '1' || key === '2' || key === '3' ? key : null;
}

/**
 * isMachine: whether Twilio's answering machine detection (`AnsweredBy`) says a machine or a fax
 * answered: `machine_start`, `machine_end_beep`, `machine_end_silence`, `machine_end_other`, `fax`.
 * `human` and `unknown` are a person (unknown: detection could not tell, so the call is spoken).
 */
export function isMachine(answeredBy: string | null | undefined): boolean {
  return typeof answeredBy === 'string' && /^(machine_|fax$)/.test(answeredBy);
}

/**
 * callOutcomeOf: what a call came to, from its status and who answered, or null while it is not
 * over (queued, initiated, ringing, in progress).
 */
export function callOutcomeOf(
  status: string | null | undefined,
  answeredBy?: string | null,
): CallOutcome | null {
  switch (status) {
    case 'completed':
      return isMachine(answeredBy) ? 'machine' : 'answered';
    case 'busy':
    case 'no-answer':
    case 'failed':
    case 'canceled':
      return status;
    default:
      return null;
  }
}

/** isCallDelivered: a call counts as delivered only when a person answered it. */
export function isCallDelivered(outcome: CallOutcome): outcome is 'answered' {
  return outcome === 'answered';
}

/** Why a call was not delivered: the notification's failure, the timeline's words. */
export const CALL_NOT_DELIVERED: Record<Exclude<CallOutcome, 'answered'>, string> = {
  'no-answer': 'The call was not answered',
  busy: 'The line was busy',
  failed: 'The call could not be placed',
  canceled: 'The call was canceled before it was answered',
  machine: 'An answering machine took the call',
};

const NOT_DELIVERED_WORDS: Record<Exclude<CallOutcome, 'answered'>, string> = {
  'no-answer': 'not answered',
  busy: 'busy',
  failed: 'could not be placed',
  canceled: 'canceled before it was answered',
  machine: 'answered by a machine, nothing said',
};

/** callOutcomeWords: a call's outcome as the timeline says it, with the key pressed. */
export function callOutcomeWords(outcome: CallOutcome, key: CallKey | null): string {
  if (outcome !== 'answered') return NOT_DELIVERED_WORDS[outcome];
  if (key === '1') return 'answered, pressed 1 to acknowledge';
  if (key === '2') return 'answered, pressed 2 to escalate';
  if (key === '3') return 'answered, pressed 3 to hear it again';
  return 'answered, no key pressed';
}
