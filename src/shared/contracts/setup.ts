import { z } from 'zod';
import { NotificationTestResultSchema } from './notification-test';
import { text } from './primitives';
import { profileTimezone } from './users';

/**
 * The setup checklist (issue 35, decision 258): `GET /api/setup` answers an administrator the
 * install's first steps, each ticked from what the server holds, and whether they dismissed it;
 * `POST /api/setup/dismiss` hides it for them; `POST /api/setup/test-page` sends them a test page
 * by email and, with a phone on their profile, by SMS.
 */

export const SETUP_STEP_IDS = [
  'invite',
  'people',
  'rotation',
  'policy',
  'integration',
  'test-page',
] as const;
export type SetupStepId = (typeof SETUP_STEP_IDS)[number];

export const SetupStepSchema = z.object({
  id: z.enum(SETUP_STEP_IDS),
  title: z.string(),
  done: z.boolean(),
  /** where the step stands, in words */
  detail: z.string(),
  /** the screen that does it, and its link's words */
  href: z.string(),
  action: z.string(),
});
export type SetupStep = z.infer<typeof SetupStepSchema>;

export const SetupChecklistSchema = z.object({
  /** the reader dismissed it (each administrator for themselves) */
  dismissed: z.boolean(),
  /** every step done */
  complete: z.boolean(),
  steps: z.array(SetupStepSchema),
});
export type SetupChecklist = z.infer<typeof SetupChecklistSchema>;

/** What "Send a test page to me" answers: each way's outcome, and the checklist after it. */
export const TestPageResultSchema = z.object({
  results: z.array(NotificationTestResultSchema),
  checklist: SetupChecklistSchema,
});
export type TestPageResult = z.infer<typeof TestPageResultSchema>;

/** One test page a minute per administrator. */
export const TEST_PAGE_INTERVAL_MS = 60_000;

/**
 * The checklist's "Your phone and time zone" form: saved with the profile API (`PATCH
 * /api/users/{own id}`); an empty phone leaves the saved one as it is.
 */
export const SetupYouFormSchema = z.object({
  phone: text({ label: 'Phone number', trim: true }).max(
    40,
    'Phone number must be at most 40 characters',
  ),
  timezone: profileTimezone,
});
export type SetupYouFormValues = z.infer<typeof SetupYouFormSchema>;
