import { z } from 'zod';

/**
 * Contracts of "your shift moved" (issue 18, decisions 219 and 262): the signed-in person's
 * notices that their shifts in a rotation changed, one per rotation, shown on the dashboard until
 * dismissed or until every shift in them has ended.
 */

const SpanSchema = z.object({
  /** ISO */
  start: z.string(),
  /** ISO */
  end: z.string(),
});

/** ShiftChangeSchema is one change of a person's shift: moved, removed, or new. */
export const ShiftChangeSchema = z.object({
  kind: z.enum(['moved', 'added', 'removed']),
  /** the shift as it was (null for a new one) */
  before: SpanSchema.nullable(),
  /** the shift as it is now (null for a removed one) */
  after: SpanSchema.nullable(),
  /** a removed shift: the ids of who is on call in its time now (decision 262) */
  coveredBy: z.array(z.number().int()).optional(),
});
export type ShiftChangeView = z.infer<typeof ShiftChangeSchema>;

/** ShiftNoticeSchema is one notice as GET /api/user/shift-notices answers it. */
export const ShiftNoticeSchema = z.object({
  id: z.number().int(),
  rotation: z.object({ id: z.number().int(), name: z.string() }),
  /** ISO: when Baton told the person */
  createdAt: z.string(),
  changes: z.array(ShiftChangeSchema),
  /** the changes in words, in the reader's zone (at most ten; `more` counts the rest) */
  sentences: z.array(z.string()),
  more: z.number().int(),
  /** the zone the sentences are written in: the reader's */
  timeZone: z.string(),
});
export type ShiftNotice = z.infer<typeof ShiftNoticeSchema>;
