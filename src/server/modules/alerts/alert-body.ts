import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ErrorCodes } from '../../../shared/contracts/errors';
import { ALERT_BODY_MAX } from '../../../shared/contracts/integrations';
import { issueMessages } from '../../../shared/domain/alerts';
import { AlertRefusal } from './alert-refusals';

/** JSON nested deeper than this is refused before it is parsed (no sender nests so deep). */
export const ALERT_JSON_DEPTH_MAX = 64;

export const ALERT_ROUTE_MESSAGES = {
  notJson: 'The request body is not valid JSON.',
  tooDeep: `The request body nests objects or arrays deeper than ${ALERT_JSON_DEPTH_MAX} levels.`,
  sendJson: 'Send the alert as JSON (Content-Type: application/json).',
  bodyRequired: 'The request body is empty: send the alert as JSON.',
  notObject: 'The request body must be a JSON object.',
} as const;

/** What the plugin's body parser hands the routes: the text as received, parsed by each route. */
export interface InboundBody {
  text: string;
  form: boolean;
}

/**
 * readBodiesAsText makes the alert plugin read any content type as text, up to ALERT_BODY_MAX:
 * each route parses its own body, so a refusal answers in its vendor's shape.
 */
export function readBodiesAsText(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: ALERT_BODY_MAX },
    (req, body, done) => {
      const type = String(req.headers['content-type'] ?? '').toLowerCase();
      done(null, {
        text: body as string,
        form: type.startsWith('application/x-www-form-urlencoded'),
      } satisfies InboundBody);
    },
  );
}

/** inbound: the body readBodiesAsText handed the route, or undefined when there was none. */
export function inbound(req: FastifyRequest): InboundBody | undefined {
  const body = req.body as InboundBody | undefined;
  return body && typeof body === 'object' && typeof body.text === 'string' ? body : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** parseJson reads the body as one JSON object, or throws the refusal that says why not. */
export function parseJson(body: InboundBody | undefined): Record<string, unknown> {
  const status = 400;
  if (body === undefined || body.text.trim() === '') {
    throw new AlertRefusal(status, ErrorCodes.BAD_REQUEST, ALERT_ROUTE_MESSAGES.bodyRequired);
  }
  if (body.form) {
    throw new AlertRefusal(415, ErrorCodes.UNSUPPORTED_MEDIA_TYPE, ALERT_ROUTE_MESSAGES.sendJson);
  }
  if (jsonNestingExceeds(body.text, ALERT_JSON_DEPTH_MAX)) {
    throw new AlertRefusal(status, ErrorCodes.BAD_REQUEST, ALERT_ROUTE_MESSAGES.tooDeep);
  }
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    throw new AlertRefusal(status, ErrorCodes.BAD_REQUEST, ALERT_ROUTE_MESSAGES.notJson);
  }
  if (!isObject(value)) {
    throw new AlertRefusal(status, ErrorCodes.BAD_REQUEST, ALERT_ROUTE_MESSAGES.notObject);
  }
  return value;
}

/** formFields reads `summary=…&details=…`: a field sent twice keeps its first value. */
export function formFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (!Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}

/** parseWith returns the value as `schema` reads it, or throws the refusal naming its first issue. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  status: number,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const [first] = issueMessages(parsed.error);
  throw new AlertRefusal(
    status,
    ErrorCodes.VALIDATION_FAILED,
    first ?? 'The alert is not valid',
    parsed.error,
  );
}

/** A generated dedup key, for a trigger that names none: 32 hex characters, as PagerDuty's. */
export function generatedDedupKey(): string {
  return randomUUID().replace(/-/g, '');
}

/** jsonNestingExceeds tells whether JSON text nests arrays and objects deeper than `max`. */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth -= 1;
  }
  return false;
}
