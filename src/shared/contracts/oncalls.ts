import { z } from 'zod';
import { SHIFT_SOURCES } from './calendar';
import { idText, instant } from './primitives';
import { PersonSchema } from './rotations';

/**
 * Contracts of `GET /api/oncalls` (issue 20, decision 226): who holds each rotation's baton at an
 * instant (now by default), since when, until when, and who is next: the read bots, phone
 * routing and status pages make.
 */

/** How far from now `at` may be, either way: a year of history, a year of projection. */
export const ONCALLS_MAX_DAYS = 366;
/** How far after `at` the read looks for the end of the holder's stretch and the next holder. */
export const ONCALLS_LOOKAHEAD_DAYS = 62;

const atMessage = 'at must be a date and time (ISO 8601)';

/** OnCallsQuerySchema is the query of GET /api/oncalls: the instant (default now) and one rotation. */
export const OnCallsQuerySchema = z.object({
  at: instant({ label: 'at', message: atMessage }).optional(),
  rotationId: idText({ label: 'rotationId' }).optional(),
});
export type OnCallsQuery = z.input<typeof OnCallsQuerySchema>;

/** One rotation's holder at the instant. */
export const OnCallSchema = z.object({
  rotation: z.object({
    id: z.number().int(),
    name: z.string(),
    timeZone: z.string(),
    /** a suspended rotation has nobody on call from now on */
    suspended: z.boolean(),
  }),
  /** who holds the baton (with email and phone, null when none is on file); null: nobody */
  holder: PersonSchema.nullable(),
  /** the calendar's word for the holder's shift (GET /api/calendar); null when nobody holds it */
  source: z.enum(SHIFT_SOURCES).nullable(),
  /** a coverage shift ahead: whose shift the holder covers */
  coveredUserId: z.number().int().optional(),
  /** ISO: when the holder took the baton (nobody: when the last holder let it go); null if unknown */
  since: z.string().nullable(),
  /** ISO: when the baton next changes hands; null if not within the lookahead */
  until: z.string().nullable(),
  /** who holds the baton next and from when (ISO); null if nobody within the lookahead */
  next: z.object({ holder: PersonSchema, from: z.string() }).nullable(),
  /**
   * the gap holding the instant (decision 217): every member is away, so the baton stays with
   * the holder though they are away too (or with nobody); else null
   */
  gap: z.object({ start: z.string(), end: z.string() }).nullable(),
});
export type OnCall = z.infer<typeof OnCallSchema>;

/** OnCallsSchema is GET /api/oncalls: the instant answered for, and each rotation by name. */
export const OnCallsSchema = z.object({
  /** ISO */
  at: z.string(),
  oncalls: z.array(OnCallSchema),
});
export type OnCalls = z.infer<typeof OnCallsSchema>;
