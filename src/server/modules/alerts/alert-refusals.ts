import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type ErrorCode, ErrorCodes } from '../../../shared/contracts/errors';
import { INTEGRATION_MESSAGES } from '../../../shared/contracts/integrations';
import { issueMessages } from '../../../shared/domain/alerts';
import { opsgenieError } from '../../../shared/domain/alerts/opsgenie';
import { pagerDutyInvalid } from '../../../shared/domain/alerts/pagerduty';
import type { AlertDeps } from './alert-deps';
import { type Wire, wireOf } from './alert-paths';

/**
 * AlertRefusal is a 4xx an alert route answers, in its format's own error shape (PagerDuty's,
 * Opsgenie's or Baton's); nothing has been written when it is thrown.
 */
export class AlertRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: z.ZodError,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** keyRefusal: a missing or wrong key (or one bound to signed requests), as each format's senders expect it. */
export function keyRefusal(
  wire: Wire,
  message: 'keyMissing' | 'keyUnknown' | 'signedOnly',
): AlertRefusal {
  // PagerDuty names a wrong routing key as a bad field of the event (400), not as 401.
  return wire === 'pagerduty'
    ? new AlertRefusal(400, ErrorCodes.BAD_REQUEST, INTEGRATION_MESSAGES[message])
    : new AlertRefusal(401, ErrorCodes.UNAUTHENTICATED, INTEGRATION_MESSAGES[message]);
}

/** guessRefusal: 429 to a client past the limit of wrong keys, whatever key it sends now. */
export function guessRefusal(seconds: number): AlertRefusal {
  return new AlertRefusal(
    429,
    ErrorCodes.RATE_LIMITED,
    INTEGRATION_MESSAGES.keyGuesses(seconds),
    undefined,
    seconds,
  );
}

/**
 * alertErrorHandler: the alert plugin's error handler. A refusal, a body too large or another 4xx
 * of Fastify's is answered in the shape the route's senders read; anything else is the app's own
 * failure, rethrown for its handler to log and answer 5xx.
 */
export function alertErrorHandler(deps: AlertDeps) {
  return (thrown: FastifyError | AlertRefusal, req: FastifyRequest, reply: FastifyReply) => {
    const refusal =
      thrown instanceof AlertRefusal
        ? thrown
        : thrown.statusCode === 413 || thrown.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? new AlertRefusal(413, ErrorCodes.PAYLOAD_TOO_LARGE, INTEGRATION_MESSAGES.tooLarge)
          : thrown.statusCode !== undefined && thrown.statusCode < 500
            ? new AlertRefusal(thrown.statusCode, codeOf(thrown.statusCode), thrown.message)
            : undefined;
    if (!refusal) throw thrown;
    deps.metrics?.alertRefused(wireOf(req), refusal.status);
    return answerRefusal(req, reply, refusal);
  };
}

/** Opsgenie's `took` (seconds) and `requestId`, in its answers and errors alike. */
export function tookAndId(req: FastifyRequest, reply: FastifyReply) {
  return { took: Math.round(reply.elapsedTime) / 1000, requestId: String(req.id) };
}

function codeOf(status: number): ErrorCode {
  if (status === 415) return ErrorCodes.UNSUPPORTED_MEDIA_TYPE;
  if (status === 429) return ErrorCodes.RATE_LIMITED;
  if (status === 404) return ErrorCodes.NOT_FOUND;
  return ErrorCodes.BAD_REQUEST;
}

/** answerRefusal answers a refusal in the shape the route's senders read. */
function answerRefusal(req: FastifyRequest, reply: FastifyReply, refusal: AlertRefusal) {
  const wire = wireOf(req);
  reply.code(refusal.status);
  if (refusal.retryAfter !== undefined) reply.header('Retry-After', String(refusal.retryAfter));
  const { issues, message, code } = refusal;
  if (wire === 'pagerduty') {
    const answer = issues
      ? pagerDutyInvalid(issues)
      : {
          status: refusal.status === 400 ? 'invalid event' : 'error',
          message,
          errors: [isKeyMessage(message) ? `routing_key: ${message}` : message],
        };
    return reply.send({ ...answer, code });
  }
  if (wire === 'opsgenie') {
    const { took, requestId } = tookAndId(req, reply);
    const answer = issues ? opsgenieError(issues, took, requestId) : { message, took, requestId };
    return reply.send({ ...answer, code });
  }
  return reply.send({ message, code, ...(issues ? { fields: fieldsOf(issues) } : {}) });
}

const isKeyMessage = (message: string) =>
  message === INTEGRATION_MESSAGES.keyMissing ||
  message === INTEGRATION_MESSAGES.keyUnknown ||
  message === INTEGRATION_MESSAGES.signedOnly;

/** Baton's `fields`: each bad field's path and its first message ('_' for the body itself). */
function fieldsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  const messages = issueMessages(error);
  error.issues.forEach((issue, i) => {
    const path = issue.path.map(String).join('.') || '_';
    fields[path] ??= messages[i] ?? issue.message;
  });
  return fields;
}
