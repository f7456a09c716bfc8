import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { type ErrorCode, ErrorCodes } from '../../shared/contracts/errors';
import type { Config } from '../core/config';

/** helmetOptions: the security headers of every answer, as helmet's options. */
export function helmetOptions(config: Pick<Config, 'isProduction'>): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix injects style tags at run time; only styles get 'unsafe-inline'.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.isProduction ? [] : null,
      },
    },
    // Google's sign-in popup needs to talk back to its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    hsts: config.isProduction,
  };
}

/**
 * securityHeaders returns the headers helmet sets with these options, computed once (decision
 * 216): every answer carries them, set by one hook, and so do the answers that never reach
 * Fastify's hooks (decision 162): Node's own 431 and 400 to a request it cannot parse, and
 * Fastify's router's 414 and 400 for an address it will not route.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failed: unknown;
  helmet(options)(
    {} as http.IncomingMessage,
    collector as unknown as http.ServerResponse,
    (err?: unknown) => {
      failed = err;
    },
  );
  if (failed) throw failed;
  return headers;
}

/** The app's error shape for answers given before routing. */
function errorBody(status: number): { message: string; code: ErrorCode } {
  switch (status) {
    case 414:
      return { message: 'The address is too long.', code: ErrorCodes.URI_TOO_LONG };
    case 431:
      return { message: 'The request headers are too large.', code: ErrorCodes.HEADERS_TOO_LARGE };
    case 408:
      return {
        message: 'The request took too long to arrive.',
        code: ErrorCodes.REQUEST_TIMEOUT,
      };
    default:
      return { message: 'The request could not be understood.', code: ErrorCodes.BAD_REQUEST };
  }
}

/**
 * clientErrorHandler answers what Node's HTTP parser refuses before Fastify sees a request (headers
 * or a request line over `maxHeaderSize`: 431; a request that arrives too slowly: 408; anything
 * malformed: 400) with the security headers and the app's error shape, then closes the connection,
 * as Fastify's default handler does (it sends neither).
 */
export function clientErrorHandler(headers: Record<string, string>) {
  return (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const status =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400;
    if (socket.writable) {
      const body = JSON.stringify(errorBody(status));
      const lines = [
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        'cache-control: no-store',
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
    }
    socket.destroy(err);
  };
}

/**
 * frameworkErrors answers what Fastify's router refuses before any hook runs: a path parameter
 * over `maxParamLength` (414) or an address that is not valid (400), with the security headers
 * and the app's error shape instead of Fastify's bare JSON.
 */
export function frameworkErrors(headers: Record<string, string>) {
  return (err: Error & { code?: string }, _req: FastifyRequest, reply: FastifyReply) => {
    const status = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
    return reply
      .code(status)
      .headers({ ...headers, 'cache-control': 'no-store' })
      .send(errorBody(status));
  };
}
