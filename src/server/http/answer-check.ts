import { gunzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/**
 * checkAnswer compares what a route answered with what its `response` schema declares (decision
 * 224): the status must be declared (exactly or by its range, `4xx`), the media type must be the
 * declared one, and a JSON body must parse as the declared schema — read as the client reads it,
 * after JSON.stringify. It returns what does not match, or null. The test app runs it on every
 * answer (`AppDeps.checkAnswers`); production does not.
 */
export function checkAnswer(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): string | null {
  const route = req.routeOptions.url;
  if (!route?.startsWith('/api')) return null;
  const declared = req.routeOptions.schema?.response as Record<string, unknown> | undefined;
  const where = `${req.method} ${route} answered ${reply.statusCode}`;
  if (!declared) return `${where}, but the route declares no answers (schema.response)`;
  const status = reply.statusCode;
  const answer = declared[status] ?? declared[`${Math.floor(status / 100)}xx`] ?? declared.default;
  if (!answer) return `${where}, a status the route does not declare`;
  const mediaType = String(reply.getHeader('content-type') ?? '')
    .split(';')[0]
    .trim();
  let schema: z.ZodType;
  if (isContentAnswer(answer)) {
    const entry = answer.content[mediaType];
    if (!entry) {
      return `${where} in ${mediaType || 'no media type'}, declared: ${Object.keys(answer.content).join(', ')}`;
    }
    schema = entry.schema;
  } else {
    schema = answer as z.ZodType;
  }
  const gzipped = reply.getHeader('content-encoding') === 'gzip' && Buffer.isBuffer(payload);
  const body = gzipped
    ? gunzipSync(payload).toString()
    : typeof payload === 'string'
      ? payload
      : Buffer.isBuffer(payload)
        ? payload.toString()
        : null;
  // A stream (the live updates) is not read here.
  if (body === null && payload != null) return null;
  if (schema._zod.def.type === 'null') {
    return body ? `${where} with a body, declared without one` : null;
  }
  if (!isContentAnswer(answer) && mediaType !== 'application/json') {
    return `${where} in ${mediaType || 'no media type'}, declared: application/json`;
  }
  let value: unknown = body ?? '';
  if (mediaType === 'application/json') {
    try {
      value = JSON.parse(body ?? '');
    } catch {
      return `${where} with a body that is not JSON`;
    }
  }
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
  return `${where} with a body its declared schema refuses: ${issues}\n${(body ?? '').slice(0, 500)}`;
}

function isContentAnswer(
  answer: unknown,
): answer is { content: Record<string, { schema: z.ZodType }> } {
  return (
    typeof answer === 'object' && answer !== null && 'content' in answer && !('_zod' in answer)
  );
}
