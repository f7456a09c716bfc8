import { describe, expect, test } from 'vitest';
import { isReservedPath } from './reserved-paths';

describe('isReservedPath', () => {
  test.each([
    '/api',
    '/api/',
    '/api/nope',
    '/api?x=1',
    '/metrics',
    '/metrics/',
    '/metrics?format=prometheus',
    '/openapi',
    '/openapi.json',
    '/openapi.yaml',
    '/openapi/v1',
    '/healthz/deep',
    '/readyz/x',
    '/livez',
    '/.well-known/security.txt',
    '/METRICS',
  ])('%s is reserved', (url) => {
    expect(isReservedPath(url)).toBe(true);
  });

  test.each([
    '/',
    '/no-such-page',
    '/pages',
    '/apis',
    '/api-docs-page',
    '/metricsboard',
    '/openapis',
    '/rotations/api',
    '/help/metrics',
    '/login?next=%2Fmetrics',
  ])('%s is a browser path', (url) => {
    expect(isReservedPath(url)).toBe(false);
  });
});
