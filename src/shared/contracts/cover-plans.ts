import { z } from 'zod';
import { id, idText, instant, text } from './primitives';
import { PersonSchema } from './rotations';

/**
 * Contracts of planned cover (issue 18, decision 218): asking a teammate to cover a window of
 * one's own future shifts, or arranging it for someone else, and "who should cover".
 */

/**
 * CoverPlanInputSchema is the body of POST /api/rotations/{id}/cover-plans. Without
 * `requesterId` (or with one's own) it asks for cover; with another member's it arranges cover
 * for them (managers of the rotation and administrators).
 */
export const CoverPlanInputSchema = z
  .object({
    coveringUserId: id({
      label: 'coveringUserId',
      error: 'Please select a team member to cover the window',
    }),
    startTime: instant({ label: 'Start time', message: 'Please select a start time' }),
    endTime: instant({ label: 'End time', message: 'Please select an end time' }),
    notes: text({ label: 'Notes', multiline: true })
      .max(5000, 'Notes must be at most 5000 characters.')
      .nullable()
      .optional(),
    /** the person being covered; absent: the caller */
    requesterId: id({ label: 'requesterId' }).optional(),
  })
  .refine((c) => Date.parse(c.endTime) > Date.parse(c.startTime), {
    message: 'End time must be after start time',
    path: ['endTime'],
  });
export type CoverPlanInput = z.infer<typeof CoverPlanInputSchema>;

/** CoverCandidatesQuerySchema is the query of GET /api/rotations/{id}/cover-candidates. */
export const CoverCandidatesQuerySchema = z
  .object({
    startTime: instant({ label: 'startTime', message: 'startTime must be a date and time' }),
    endTime: instant({ label: 'endTime', message: 'endTime must be a date and time' }),
    /** the person being covered (left out of the list); absent: the caller */
    requesterId: idText({ label: 'requesterId' }).optional(),
  })
  .refine((q) => Date.parse(q.endTime) > Date.parse(q.startTime), {
    message: 'End time must be after start time',
    path: ['endTime'],
  });
export type CoverCandidatesQuery = z.input<typeof CoverCandidatesQuerySchema>;

/** One member who could cover, with what helps choose. */
export const CoverCandidateSchema = z.object({
  user: PersonSchema,
  /** hours holding a baton, in any rotation, over the last 90 days (handoff history) */
  onCallHours: z.number(),
  /** their time off overlaps the window */
  onTimeOff: z.boolean(),
  /** the time off that overlaps the window (ISO) */
  timeOff: z.array(z.object({ startTime: z.string(), endTime: z.string() })),
});
export type CoverCandidate = z.infer<typeof CoverCandidateSchema>;

/**
 * CoverCandidatesSchema is GET /api/rotations/{id}/cover-candidates: the members who can hold
 * the baton, other than the person being covered; those available first, then the fewest hours.
 */
export const CoverCandidatesSchema = z.object({
  /** ISO: the span the hours count from, to now */
  since: z.string(),
  candidates: z.array(CoverCandidateSchema),
});
export type CoverCandidates = z.infer<typeof CoverCandidatesSchema>;
