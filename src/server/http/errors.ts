import { type ErrorCode, ErrorCodes } from '../../shared/contracts/errors';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  REQUEST_TIMEOUT: 408,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
  ROTATION_SUSPENDED: 409,
  NOT_ON_CALL: 409,
  NOT_A_MEMBER: 409,
  BATON_ALREADY_HELD: 409,
  BATON_HOLDER_CHANGED: 409,
  NO_ONE_ON_CALL: 409,
  CANNOT_HOLD_BATON: 409,
  SCHEDULE_REQUIRED: 409,
  SCHEDULE_OVERLAP: 409,
  ESCALATION_POLICY_IN_USE: 409,
  INCIDENT_ALREADY_ESCALATED: 409,
  IMPORT_SOURCE_REFUSED: 422,
  IMPORT_SOURCE_FAILED: 502,
  IMPORT_ROW_FAILED: 422,
};

/** AppError is the one coded error domain and service code throws; the error handler maps it. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = STATUS_BY_CODE[code];
  }
}

export const notFound = (message = 'Not found') => new AppError(ErrorCodes.NOT_FOUND, message);
export const forbidden = (message = 'You do not have permission to do that.') =>
  new AppError(ErrorCodes.FORBIDDEN, message);
export const unauthenticated = (message = 'Not authenticated') =>
  new AppError(ErrorCodes.UNAUTHENTICATED, message);
export const conflict = (message: string) => new AppError(ErrorCodes.CONFLICT, message);
export const badRequest = (message: string) => new AppError(ErrorCodes.BAD_REQUEST, message);

/** What a route schema's refusal says of one issue (fastify-type-provider-zod's shape). */
export interface SchemaIssue {
  /** the issue's path, '/a/0/b'; '/' for the input as a whole */
  instancePath: string;
  message?: string;
}

/**
 * inputError is the one error a route schema's refusal becomes (decision 190): a path parameter
 * that is no row id answers 400 BAD_REQUEST with its message; a body or query string 400
 * VALIDATION_FAILED naming the first issue (`path: message`) with a message per field.
 */
export function inputError(where: string | undefined, issues: readonly SchemaIssue[]): AppError {
  const first = issues[0];
  const message = first?.message ?? 'Invalid input';
  if (where === 'params') return new AppError(ErrorCodes.BAD_REQUEST, message);
  const pathOf = (issue: SchemaIssue) => issue.instancePath.split('/').filter(Boolean).join('.');
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[pathOf(issue) || '_'] ??= issue.message ?? 'Invalid input';
  const path = first ? pathOf(first) : '';
  return new AppError(ErrorCodes.VALIDATION_FAILED, path ? `${path}: ${message}` : message, fields);
}
