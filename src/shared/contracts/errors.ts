import { z } from 'zod';

/** ErrorCodes lists every machine-readable error code the API answers with. */
export const ErrorCodes = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  // Answered before routing, by Node's parser or Fastify's router (decision 162)
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  URI_TOO_LONG: 'URI_TOO_LONG',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL',
  // Rotations and the baton: all answer 409 (src/server/http/errors.ts)
  ROTATION_SUSPENDED: 'ROTATION_SUSPENDED',
  NOT_ON_CALL: 'NOT_ON_CALL',
  NOT_A_MEMBER: 'NOT_A_MEMBER',
  BATON_ALREADY_HELD: 'BATON_ALREADY_HELD',
  BATON_HOLDER_CHANGED: 'BATON_HOLDER_CHANGED',
  NO_ONE_ON_CALL: 'NO_ONE_ON_CALL',
  CANNOT_HOLD_BATON: 'CANNOT_HOLD_BATON',
  SCHEDULE_REQUIRED: 'SCHEDULE_REQUIRED',
  SCHEDULE_OVERLAP: 'SCHEDULE_OVERLAP',
  /** a policy some rotation follows cannot be deleted; the message names the rotations */
  ESCALATION_POLICY_IN_USE: 'ESCALATION_POLICY_IN_USE',
  /** an escalation sent from a step the incident has already left (decision 236) */
  INCIDENT_ALREADY_ESCALATED: 'INCIDENT_ALREADY_ESCALATED',
  // Imports (issue 34, decision 268)
  /** the source refused what was given (the key, the file) or is not available: 422 */
  IMPORT_SOURCE_REFUSED: 'IMPORT_SOURCE_REFUSED',
  /** the source failed or answered badly (a timeout, malformed data): 502 */
  IMPORT_SOURCE_FAILED: 'IMPORT_SOURCE_FAILED',
  /** a row of the plan cannot be made; the message names it and nothing was written: 422 */
  IMPORT_ROW_FAILED: 'IMPORT_ROW_FAILED',
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** ApiErrorSchema is the one error shape every failed API call answers with. */
export const ApiErrorSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
