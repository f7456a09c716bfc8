/**
 * The first path segments that belong to machines, not to the browser (decision 182): the JSON
 * API, the operational probes (/healthz, /readyz, /livez), the reserved /metrics and /openapi
 * (with or without a file extension, such as /openapi.json) and /.well-known. An unknown path
 * under one of them answers 404 in the app's error shape; it never falls through to the
 * single-page app, whose 200 HTML would tell a scraper or a probe that the path exists.
 */
const RESERVED_PATH = /^\/(?:api|metrics|openapi|healthz|readyz|livez|\.well-known)(?:[/.?#]|$)/i;

/** isReservedPath tells whether a request URL (path and query) lies under a reserved prefix. */
export function isReservedPath(url: string): boolean {
  return RESERVED_PATH.test(url);
}
