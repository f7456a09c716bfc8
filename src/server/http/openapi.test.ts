import { gunzipSync, gzipSync } from 'node:zlib';
import scalarApiReference from '@scalar/fastify-api-reference';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app';
import { plainScript } from './api-reference';
import { API_REFERENCE } from './openapi';

/**
 * The API's OpenAPI document (issue 20, decision 224) is made from the routes' own zod schemas:
 * it must pass a standard validator, name every /api route Fastify registered with its method,
 * give each operation its answers and its errors, and keep the specification's paths.
 */

let t: TestApp;
let document: {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
};

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  document = res.json();
});
afterAll(() => t.close());

/** Fastify's `/api/rotations/:id` is OpenAPI's `/api/rotations/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

test('the document is OpenAPI 3.1 and passes the standard validator', async () => {
  expect(document.openapi).toBe('3.1.0');
  const validator = new Validator();
  const result = await validator.validate(document as never);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');
});

test('every /api route Fastify registered is in the document with its method', () => {
  const routes = t.app.routeList.filter((r) => r.url.startsWith('/api'));
  expect(routes.length).toBeGreaterThan(100);
  const missing = routes
    .filter((r) => !document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
    .map((r) => `${r.method} ${r.url}`);
  expect(missing).toEqual([]);
});

test('every operation states its success answer and its error answers', () => {
  const lacking: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const responses = Object.entries(operation.responses ?? {});
      const success = responses.some(([status]) => /^[23]/.test(status));
      const error = responses.some(([status]) => /^[45]/.test(status));
      if (!success || !error) {
        lacking.push(`${method.toUpperCase()} ${path}: ${responses.map(([s]) => s).join(', ')}`);
      }
    }
  }
  expect(lacking).toEqual([]);
});

test("the API's errors are the one error shape, a component of the document", () => {
  expect(document.components?.schemas?.ApiError).toMatchObject({ type: 'object' });
  const rotation = document.paths['/api/rotations/{id}']?.get?.responses ?? {};
  for (const status of ['400', '401', '403', '404', '5XX']) {
    expect(rotation[status]).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
    });
  }
});

// Decision 267: Scalar reads the whole document before it shows the reference. Before the
// contracts were named components it was 526 kB, a rotation's schema written out fourteen times.
test('the shared contracts are named components, referenced where routes use them', () => {
  const schemas = document.components?.schemas ?? {};
  for (const name of ['Rotation', 'Incident', 'TimelineEvent', 'Page', 'Person', 'ApiError']) {
    expect(schemas[name], name).toMatchObject({ type: 'object' });
  }
  const list = document.paths['/api/rotations']?.get?.responses?.['200'];
  expect(list).toMatchObject({
    content: {
      'application/json': {
        schema: { type: 'array', items: { $ref: '#/components/schemas/Rotation' } },
      },
    },
  });
  // Every name a reference uses is in the document, and every name in it is used.
  const text = JSON.stringify(document);
  const referred = new Set(
    [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(([, name]) => name),
  );
  expect([...referred].filter((name) => !schemas[name])).toEqual([]);
  expect(Object.keys(schemas).filter((name) => !referred.has(name))).toEqual([]);
});

test('no schema of 1 kB or more is written out twice, and the document stays under 400 kB', () => {
  const places = new Map<string, string[]>();
  const visit = (value: unknown, at: string) => {
    if (!value || typeof value !== 'object') return;
    const text = JSON.stringify(value);
    const schema = !Array.isArray(value) && ('type' in value || 'anyOf' in value);
    if (schema && text.length >= 1000) places.set(text, [...(places.get(text) ?? []), at]);
    for (const [key, child] of Object.entries(value)) visit(child, `${at}/${key}`);
  };
  visit(document.paths, '#/paths');
  const repeated = [...places.values()].filter((at) => at.length > 1).map((at) => at.join(' = '));
  expect(repeated).toEqual([]);
  expect(Buffer.byteLength(JSON.stringify(document))).toBeLessThan(400_000);
});

test('the cookie session and API tokens are its security schemes', () => {
  expect(document.components?.securitySchemes).toMatchObject({
    session: { type: 'apiKey', in: 'cookie' },
    token: { type: 'http', scheme: 'bearer' },
  });
});

// The specification's routes keep their exact paths and methods.
test.each([
  'DELETE /api/invitations/{id}',
  'DELETE /api/rotation-schedules/{scheduleId}',
  'DELETE /api/rotations/{id}',
  'DELETE /api/rotations/{id}/on-call/{userId}',
  'DELETE /api/users/{id}',
  'GET /api/auth/user',
  'GET /api/debug/rotations-compare',
  'GET /api/handoffs/recent',
  'GET /api/invitations',
  'GET /api/invitations/{token}/validate',
  'GET /api/on-call-team',
  'GET /api/rotations',
  'GET /api/rotations/{id}',
  'GET /api/rotations/{id}/schedules',
  'GET /api/user/rotations',
  'GET /api/users',
  'GET /api/users/by-roles',
  'PATCH /api/admin/users/{id}/roles',
  'PATCH /api/rotations/{id}',
  'PATCH /api/rotations/{id}/members/reorder',
  'PATCH /api/rotations/{id}/type',
  'PATCH /api/users/{id}',
  'POST /api/auth/firebase',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/invitations',
  'POST /api/rotations',
  'POST /api/rotations/{id}/assign-oncall',
  'POST /api/rotations/{id}/cover',
  'POST /api/rotations/{id}/handoff',
  'POST /api/rotations/{id}/on-call',
  'POST /api/rotations/{id}/page',
  'POST /api/rotations/{id}/schedules',
  'POST /api/rotations/{id}/suspend',
  'POST /api/rotations/{id}/take-oncall',
])('the specification route %s is in the document', (route) => {
  const [method, path] = route.split(' ');
  expect(document.paths[path]?.[method.toLowerCase()]).toBeDefined();
});

describe('the reference page', () => {
  test('/api/docs/ is an HTML page whose script is served from here, allowed by its hash', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('/api/openapi.json');
    expect(res.body).not.toMatch(/https?:\/\/cdn\./);
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(policy).not.toContain('unsafe-eval');

    const src = res.body.match(/<script[^>]*src="([^"]+)"/)?.[1];
    expect(src).toBe('js/scalar.js');
    const script = await t.app.inject({ method: 'GET', url: `/api/docs/${src}` });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
  });

  test('the script and the document go compressed to a browser that takes gzip, the script kept a day', async () => {
    const gzip = { 'accept-encoding': 'gzip, deflate, br' };
    for (const url of ['/api/docs/js/scalar.js', '/api/openapi.json']) {
      const plain = await t.app.inject({ method: 'GET', url });
      const packed = await t.app.inject({ method: 'GET', url, headers: gzip });
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(packed.headers['content-encoding'], url).toBe('gzip');
      expect(packed.headers.vary, url).toContain('Accept-Encoding');
      expect(packed.rawPayload.length, url).toBeLessThan(plain.rawPayload.length / 3);
      expect(gunzipSync(packed.rawPayload).toString(), url).toBe(plain.body);
    }
    const script = await t.app.inject({ method: 'GET', url: '/api/docs/js/scalar.js' });
    expect(script.headers['cache-control']).toBe('public, max-age=86400');
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(document.headers['cache-control']).toBe('no-store');
    expect(document.json().openapi).toMatch(/^3\.1/);
  });

  test('a client that does not take gzip gets the script unpacked once and kept, not per request', () => {
    const bodies = { page: '<html></html>', scriptGzip: gzipSync('console.log("reference");') };
    const first = plainScript(bodies);
    expect(first.toString()).toBe('console.log("reference");');
    expect(plainScript(bodies)).toBe(first);
  });

  test('the page and the script are exactly what Scalar’s plugin serves (made in a worker, decision 282)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    const script = await t.app.inject({ method: 'GET', url: '/api/docs/js/scalar.js' });
    const plugin = Fastify();
    try {
      await plugin.register(scalarApiReference, API_REFERENCE);
      const theirPage = await plugin.inject({ method: 'GET', url: '/api/docs/' });
      const theirScript = await plugin.inject({ method: 'GET', url: '/api/docs/js/scalar.js' });
      expect(page.body).toContain('Baton API');
      expect(page.body).toBe(theirPage.body);
      expect(script.body.length).toBeGreaterThan(1_000_000);
      expect(script.body).toBe(theirScript.body);
    } finally {
      await plugin.close();
    }
  });

  test('the app keeps its own policy: no inline script elsewhere', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self';");
  });

  test('/api/docs leads to the page, /openapi.json to the document', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.statusCode).toBe(301);
    expect(docs.headers.location).toBe('/api/docs/');
    const root = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(root.statusCode).toBe(301);
    expect(root.headers.location).toBe('/api/openapi.json');
  });
});
