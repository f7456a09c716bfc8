import { createHash } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import packageJson from '../../../package.json' with { type: 'json' };
import { ApiErrorSchema } from '../../shared/contracts/errors';
import { plainScript, type ReferenceOptions, referenceBodies } from './api-reference';
import { KEYED_ROUTE_PREFIX, SAFE_METHODS } from './cross-site';
import { nameContractSchemas, tidyComponents, unnamed } from './openapi-components';
import { acceptsGzip, type Packed, pack, sendPacked } from './packed-answer';

/**
 * The API described (issue 20, decision 224): every route states its answers as zod schemas, the
 * same contracts the client reads them with; @fastify/swagger turns them into the OpenAPI 3.1
 * document at GET /api/openapi.json and Scalar shows it at /api/docs.
 */

/** The one error shape (src/server/http/errors.ts), a named component of the document. */
export const ErrorAnswerSchema = ApiErrorSchema.meta({
  id: 'ApiError',
  description: 'The one error shape: a message, a machine-readable code, a message per field.',
});

/** What each error status a route may answer means; the answer is always the error shape. */
const ERROR_MEANINGS = {
  400: 'The input is not valid (VALIDATION_FAILED with a message per field, or BAD_REQUEST).',
  401: 'Not signed in (UNAUTHENTICATED) or wrong credentials (INVALID_CREDENTIALS).',
  403: 'Signed in, but not allowed to do this (FORBIDDEN).',
  404: 'What the path names does not exist (NOT_FOUND).',
  409: 'Conflicts with the current state (CONFLICT, or a rotation rule such as NOT_ON_CALL).',
  413: 'The request body is too large (PAYLOAD_TOO_LARGE).',
  415: 'The request body is not JSON (UNSUPPORTED_MEDIA_TYPE).',
  422: 'Valid, but cannot be done as asked (IMPORT_SOURCE_REFUSED, IMPORT_ROW_FAILED).',
  502: 'A source Baton read from failed or answered badly (IMPORT_SOURCE_FAILED).',
  429: 'Too many attempts; try again later (RATE_LIMITED).',
} as const;

/** ErrorStatus: an error status a route states it may answer. */
export type ErrorStatus = keyof typeof ERROR_MEANINGS;

/** A response given in another media type than JSON, or with a description of its own. */
interface ContentAnswer {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}

/** An answer: a zod schema (a JSON body), or a body in the media types named. */
export type Answer = z.ZodType | ContentAnswer;

/**
 * RouteAnswers is a route's `response` schema. Its type is opaque on purpose: the handlers'
 * return types are not inferred from it (the services' own types stand), and what a route
 * answers is checked against it at run time in every API test (`checkAnswer`).
 */
export type RouteAnswers = { readonly __routeAnswers: unique symbol } | undefined;

/**
 * answers is a route's `response` schema (decision 224): its success answer(s) by status, the
 * error statuses it may answer, each in the one error shape, and the failures of the server
 * or its database (5xx: INTERNAL, SERVICE_UNAVAILABLE) that any route may give.
 *
 *     schema: { params: IdParams, response: answers({ 200: RotationSchema }, 401, 403, 404) }
 */
export function answers(
  success: Partial<Record<number | '5xx', Answer>>,
  ...errors: ErrorStatus[]
): RouteAnswers {
  const response: Record<string, Answer> = {};
  for (const status of errors) response[status] = errorAnswer(ERROR_MEANINGS[status]);
  response['5xx'] = errorAnswer(
    'The server or its database failed (INTERNAL, or SERVICE_UNAVAILABLE with Retry-After).',
  );
  // What the route gives itself wins: a page that answers its failures in HTML (the sign-in popup).
  for (const [status, answer] of Object.entries(success)) {
    if (answer) response[status] = isPlainJson(answer) ? ok(answer, meaningOf(status)) : answer;
  }
  return response as unknown as RouteAnswers;
}

function isPlainJson(answer: Answer): answer is z.ZodType {
  return answer instanceof z.ZodType && answer._zod.def.type !== 'null';
}

const SUCCESS_MEANINGS: Record<string, string> = {
  200: 'Done: the answer.',
  201: 'Created: what was created.',
  202: 'Accepted: what happens next.',
};
const meaningOf = (status: string) => SUCCESS_MEANINGS[status] ?? 'The answer.';

function errorAnswer(description: string): ContentAnswer {
  return { description, content: { 'application/json': { schema: ErrorAnswerSchema } } };
}

/** ok describes a JSON answer: its schema with the description the reference shows. */
export function ok(schema: z.ZodType, description: string): ContentAnswer {
  return { description, content: { 'application/json': { schema } } };
}

/** noContent: an answer without a body (204, or a redirect's 302/303). */
export function noContent(description: string): z.ZodType {
  return z.null().describe(description);
}

/** content describes an answer in another media type than JSON (a CSV file, an HTML page). */
export function content(mediaType: string, description: string, schema?: z.ZodType): Answer {
  return { description, content: { [mediaType]: { schema: schema ?? z.string() } } };
}

/** The API's document and its reference page, registered before the routes they describe. */
export async function registerOpenApi(app: FastifyInstance, options: { sessionCookie: string }) {
  nameContractSchemas();
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Baton API',
        version: packageJson.version,
        description:
          'The HTTP API of Baton, the on-call rotation app. Every failure answers in one error ' +
          'shape, `{ message, code, fields? }` (ApiError). The page calls the API with the ' +
          'session cookie of the signed-in browser; other clients send an API token.',
      },
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: options.sessionCookie,
            description: 'The session cookie set by signing in.',
          },
          token: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API token: `Authorization: Bearer baton_…`.',
          },
        },
      },
      security: [{ session: [] }, { token: [] }],
    },
    // The contracts' schemas are named components, referenced where routes use them (decision
    // 267); a route's parameters stay listed one by one.
    transform: (route) =>
      jsonSchemaTransform({
        ...route,
        schema: route.schema && {
          ...route.schema,
          params: unnamed(route.schema.params),
          querystring: unnamed(route.schema.querystring),
          headers: unnamed(route.schema.headers),
        },
      }),
    transformObject: (document) => tidyComponents(jsonSchemaTransformObject(document)),
  });
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const response = route.schema?.response as Record<string, Answer> | undefined;
    // The reference groups operations by what they are about: the path's first segment.
    if (route.schema && !route.schema.tags) {
      const segment = /^\/(?:api\/)?([\w-]+)/.exec(route.url)?.[1] ?? 'api';
      route.schema = { ...route.schema, tags: [segment] };
    }
    if (!response) return;
    // What every route of its kind may answer, said once here rather than by every route: a
    // request body that is not JSON, too large or of another type (400, 413, 415), and a state
    // change refused as cross-site (403, decision 160). A route's own declaration wins.
    // With an API token (decision 223), any route outside the keyed alert routes may also answer
    // 401 (the token unknown, revoked or expired) and 429 (its rate limit), and a state change
    // 403 (a read token).
    const implied: Record<string, string> = {};
    const keyed = route.url.startsWith(KEYED_ROUTE_PREFIX);
    if (route.url.startsWith('/api/') && !keyed) {
      implied[401] = TOKEN_REFUSED_MEANING;
      implied[429] = TOKEN_RATE_MEANING;
    }
    if (methods.some((method) => !SAFE_METHODS.has(method)) && route.url.startsWith('/api/')) {
      for (const status of [400, 413, 415] as const) implied[status] = ERROR_MEANINGS[status];
      if (!keyed) implied[403] = CROSS_SITE_MEANING;
    }
    const missing = Object.keys(implied).filter((status) => !response[status]);
    if (missing.length === 0) return;
    route.schema = {
      ...route.schema,
      response: {
        ...response,
        ...Object.fromEntries(missing.map((status) => [status, errorAnswer(implied[status])])),
      },
    };
  });
}

const CROSS_SITE_MEANING =
  'A state change from another site, or one that names no origin; or made with a read-only API token (FORBIDDEN).';
const TOKEN_REFUSED_MEANING =
  'Not signed in, or an API token that is unknown, revoked or expired (UNAUTHENTICATED).';
const TOKEN_RATE_MEANING = "Past the API token's rate limit; try again later (RATE_LIMITED).";

/** The reference page's options, as Scalar's Fastify plugin takes them (decision 282). */
export const API_REFERENCE: ReferenceOptions = {
  routePrefix: '/api/docs',
  configuration: {
    pageTitle: 'Baton API',
    url: '/api/openapi.json',
    // Scalar's default fonts come from its CDN; the page uses the system's.
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
    // Nothing that calls Scalar's services: no AI agent, no developer toolbar (SDKs, deploy).
    agent: { disabled: true },
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    // The groups start closed (decision 267): the first one drawn open cost about 0.2 s of
    // the page's work before its title showed; a click on a group opens it.
    defaultOpenFirstTag: false,
  },
};

/** The document and its reference page's routes, registered after every route. */
export async function openApiRoutes(app: FastifyInstance) {
  let document: Packed | null = null;
  app.get(
    '/api/openapi.json',
    {
      schema: {
        summary: 'This document: the API in OpenAPI 3.1',
        security: [],
        response: answers({
          200: ok(z.record(z.string(), z.unknown()), 'The OpenAPI 3.1 document.'),
        }),
      },
    },
    async (req, reply) => {
      // The routes are all registered: the document is the same until the process ends.
      document ??= pack(JSON.stringify(app.swagger()));
      return sendPacked(req, reply.type('application/json; charset=utf-8'), document);
    },
  );

  // The reference page: Scalar's page, its script served from here (no CDN), and a policy
  // allowing exactly its inline start-up script. Both are made by Scalar's plugin in a worker on
  // the first request (decision 282), so its 4.9 MB script is not held by every process.
  const bodies = referenceBodies(API_REFERENCE);
  const described = (url: string) => ({
    summary: 'The API reference page',
    security: [],
    response: docsAnswers(url),
  });
  await app.register(async (docs) => {
    docs.addHook('onSend', referencePagePolicy);
    docs.get('/api/docs', { schema: described('/api/docs') }, (_req, reply) =>
      reply.redirect('/api/docs/', 301),
    );
    docs.get('/api/docs/', { schema: described('/api/docs/') }, async (_req, reply) => {
      const { page } = await bodies();
      return reply.type('text/html; charset=utf-8').send(page);
    });
    // Scalar's script: kept by the browser for a day (its address has no hash).
    docs.get(
      '/api/docs/js/scalar.js',
      { schema: described('/api/docs/js/scalar.js') },
      async (req, reply) => {
        const made = await bodies();
        reply
          .type('application/javascript; charset=utf-8')
          .header('Cache-Control', 'public, max-age=86400')
          .header('Vary', 'Accept-Encoding');
        if (!acceptsGzip(req)) return reply.send(plainScript(made));
        return reply.header('Content-Encoding', 'gzip').send(made.scriptGzip);
      },
    );
  });
}

/**
 * referencePagePolicy: the reference page starts with an inline script, which the app's policy
 * (script-src 'self') refuses; its page alone allows that script by its hash, nothing more.
 */
async function referencePagePolicy(_req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const type = String(reply.getHeader('content-type') ?? '');
  if (typeof payload !== 'string' || !type.startsWith('text/html')) return payload;
  const policy = String(reply.getHeader('content-security-policy') ?? '');
  const hashes = [...payload.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`,
  );
  reply.header(
    'content-security-policy',
    policy.replace(/script-src 'self'/, `script-src 'self' ${hashes.join(' ')}`),
  );
  return payload;
}

function docsAnswers(url: string): RouteAnswers {
  if (url === '/api/docs') return answers({ 301: noContent('Redirect to /api/docs/.') });
  if (url.endsWith('.js')) {
    return answers({ 200: content('application/javascript', "The reference page's script.") });
  }
  return answers({ 200: content('text/html', 'The API reference, an HTML page.') });
}
