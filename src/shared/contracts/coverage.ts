import { z } from 'zod';
import { PersonSchema } from './rotations';

/**
 * Contracts of the coverage-request calls (decision 053): the requests a user made or was asked
 * to cover, and the answers to them.
 */

/** CoverageRequestViewSchema is a coverage request as GET /api/coverage-requests and the answers read it. */
export const CoverageRequestViewSchema = z.object({
  id: z.number().int(),
  rotationId: z.number().int(),
  rotation: z.object({ id: z.number().int(), name: z.string() }),
  requester: PersonSchema,
  coveringUser: PersonSchema,
  /** ISO */
  startTime: z.string(),
  /** ISO */
  endTime: z.string(),
  notes: z.string().nullable(),
  /** pending, accepted, declined, cancelled, active, completed */
  status: z.string(),
  createdAt: z.string(),
  respondedAt: z.string().nullable(),
  /** who arranged it for the requester (a manager or administrator), or null: decision 218 */
  arrangedBy: PersonSchema.nullable().optional(),
});
export type CoverageRequestView = z.infer<typeof CoverageRequestViewSchema>;

/** CoverageRequestListSchema is GET /api/coverage-requests: what I was asked, and what I asked. */
export const CoverageRequestListSchema = z.object({
  /** requests asking the signed-in user to cover */
  incoming: z.array(CoverageRequestViewSchema),
  /** requests the signed-in user made */
  outgoing: z.array(CoverageRequestViewSchema),
});
export type CoverageRequestList = z.infer<typeof CoverageRequestListSchema>;
