import { z } from 'zod';
import { NOTIFICATION_METHODS } from '../domain/notification-rules';
import { id } from './primitives';

/**
 * "Send a test" (issue 33, decision 254): `POST /api/users/{id}/notification-test` with
 * `{ method }` (and for push the device, `deviceId`) sends a short test through the real channel
 * at once and answers what became of it: delivered, failed with the provider's reason, or not
 * set up (and why). One test per method per person a minute (for push, per device): more is a
 * 429.
 */

/** Why a push test without `deviceId` is refused. */
export const PUSH_TEST_NEEDS_DEVICE = 'Choose which device to send the test push to';

export const NotificationTestInputSchema = z
  .object({
    method: z.enum(NOTIFICATION_METHODS, {
      error: `Choose one of ${NOTIFICATION_METHODS.join(', ')}`,
    }),
    /** push: which of the person's devices to test (required for push) */
    deviceId: id({ label: 'deviceId' }).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.method === 'push' && input.deviceId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['deviceId'], message: PUSH_TEST_NEEDS_DEVICE });
    }
  });
export type NotificationTestInput = z.infer<typeof NotificationTestInputSchema>;

export const NOTIFICATION_TEST_OUTCOMES = ['delivered', 'failed', 'not-set-up'] as const;
export type NotificationTestOutcome = (typeof NOTIFICATION_TEST_OUTCOMES)[number];

export const NotificationTestResultSchema = z.object({
  method: z.enum(NOTIFICATION_METHODS),
  outcome: z.enum(NOTIFICATION_TEST_OUTCOMES),
  /** in words: "Test email sent", the provider's reason, or why the method is not set up */
  message: z.string(),
});
export type NotificationTestResult = z.infer<typeof NotificationTestResultSchema>;

/** A person may send one test per method a minute. */
export const NOTIFICATION_TEST_INTERVAL_MS = 60_000;
