import { z } from 'zod';
import { text } from './primitives';

/**
 * What Twilio posts to `POST /api/twilio/sms` when a message comes in (form-encoded; decision
 * 201): who sent it, to which number, its text and Twilio's id for it. Twilio sends more fields
 * (the sender's country, the number of media…): they are signed with the rest and kept, unread.
 */
export const TwilioIncomingSmsSchema = z.looseObject({
  From: text({ label: 'From', trim: true, error: 'From is required' }).max(64),
  To: text({ label: 'To', trim: true }).max(64).optional(),
  /** an SMS can be 1,600 characters long */
  Body: text({ label: 'Body', multiline: true }).max(1600).default(''),
  MessageSid: text({ label: 'MessageSid', trim: true }).max(64).optional(),
});
export type TwilioIncomingSms = z.infer<typeof TwilioIncomingSmsSchema>;
