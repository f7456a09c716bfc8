import { z } from 'zod';
import { idText, text } from './primitives';

/**
 * What Twilio posts about a phone call (form-encoded; decision 252) to
 * `POST /api/twilio/voice/{id}/{token}` (the call's TwiML), `…/gather` (a key pressed) and
 * `…/status` (its progress): Twilio's id for the call, where it is, who answered (answering
 * machine detection) and the key. Twilio sends more fields (From, To, Direction…): they are
 * signed with the rest and kept, unread.
 */
export const TwilioCallSchema = z.looseObject({
  CallSid: text({ label: 'CallSid', trim: true, error: 'CallSid is required' }).max(64),
  CallStatus: text({ label: 'CallStatus', trim: true }).max(32).optional(),
  AnsweredBy: text({ label: 'AnsweredBy', trim: true }).max(64).optional(),
  /** the keys pressed (a Gather's action); one for Baton's calls */
  Digits: text({ label: 'Digits', trim: true }).max(32).optional(),
});
export type TwilioCall = z.infer<typeof TwilioCallSchema>;

/** The path of a call's callbacks: the notification's id and its token. */
export const TwilioCallParams = z.object({
  id: idText({ label: 'id' }),
  /** any text is read as a token: a wrong one is a 404 */
  token: z.string(),
});
