import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  bareHost,
  guardedLookup,
  type HostLookup,
  OutboundRefusal,
  type OutboundRule,
  type RefusedRange,
  resolveOutbound,
} from './outbound-address';

/**
 * sendOutbound, the one way Baton posts to a URL its users typed (decision 234): the address rule
 * checked inside the connection's lookup, no redirect followed, and the answer's status kept while
 * its body is never read, so nothing a receiver says (an internal service's error page, its
 * secrets) can come back through Baton. Built on node:http(s) rather than fetch: Node 20's fetch
 * takes no lookup, and undici's own Agent needs Node 22.
 */

/** How a request that got no answer failed, each with Baton's fixed words for it. */
export type OutboundFailure =
  | 'refused'
  | 'timeout'
  | 'connection-refused'
  | 'not-found'
  | 'tls'
  | 'unreachable';

const FAILURE_REASONS: Record<Exclude<OutboundFailure, 'refused'>, string> = {
  timeout: 'timed out',
  'connection-refused': 'connection refused',
  'not-found': 'host not found',
  tls: 'TLS failed',
  unreachable: 'unreachable',
};

/** REDIRECT_NOT_FOLLOWED is the reason of a 3xx answer: the URL approved is the only one posted to. */
export const REDIRECT_NOT_FOLLOWED = 'redirect not followed';

/** OutboundError is a request that got no answer; `reason` is Baton's fixed text, never the peer's. */
export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'OutboundError';
  }
}

/** refusedReason is the fixed reason of a refused address: "refused: private address". */
export function refusedReason(range: RefusedRange): string {
  return `refused: ${range} address`;
}

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/;

function classify(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  if (err instanceof OutboundRefusal) return new OutboundError('refused', refusedReason(err.range));
  const e = err as NodeJS.ErrnoException;
  const code = e.code ?? (e as { errors?: NodeJS.ErrnoException[] }).errors?.[0]?.code ?? '';
  const failure: OutboundFailure =
    e.name === 'AbortError' || e.name === 'TimeoutError' || code === 'ETIMEDOUT'
      ? 'timeout'
      : code === 'ECONNREFUSED'
        ? 'connection-refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA'
          ? 'not-found'
          : TLS_CODE.test(code)
            ? 'tls'
            : 'unreachable';
  return new OutboundError(failure, FAILURE_REASONS[failure as keyof typeof FAILURE_REASONS]);
}

export interface OutboundRequest {
  url: string | URL;
  method?: 'POST' | 'PUT' | 'DELETE';
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  rule: OutboundRule;
  /** how names resolve (absent: the system's resolver); tests map made-up names */
  lookup?: HostLookup;
}

/**
 * sendOutbound sends the request and returns the answer's status (a 3xx included: it is not
 * followed), or throws OutboundError with a fixed reason. An address the rule refuses is refused
 * before any connection.
 */
export async function sendOutbound(request: OutboundRequest): Promise<{ status: number }> {
  const url = new URL(request.url);
  const client = await clientFor(url, request.rule);
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: request.method ?? 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: guardedLookup(request.rule, request.lookup),
        // A fresh connection each time: no kept socket to an address checked for another request.
        agent: false,
        signal: AbortSignal.timeout(request.timeoutMs),
      },
      (res) => {
        // The body is never read (decision 234): only the status is kept.
        res.on('error', () => {});
        res.destroy();
        resolve({ status: res.statusCode ?? 0 });
      },
    );
    req.on('error', (err) => reject(classify(err)));
    req.end(request.body);
  });
}

/** A GET whose answer is read: an importer reading a source the administrator named (issue 34). */
export interface OutboundRead {
  url: string | URL;
  headers: Record<string, string>;
  timeoutMs: number;
  rule: OutboundRule;
  /** the most bytes of body kept; a longer answer fails as 'too-large' */
  maxBytes: number;
  lookup?: HostLookup;
}

/** What readOutbound got: the status and the body as text (UTF-8). */
export interface OutboundAnswer {
  status: number;
  body: string;
}

/** The reason of an answer longer than the read allows. */
export const ANSWER_TOO_LARGE = 'answer too large';

/**
 * readOutbound GETs the URL under the same address rule as sendOutbound (checked in the lookup,
 * no redirect followed) and returns the status and body. It is for sources an administrator names
 * to import from, whose answers are the point; posts to user-typed URLs keep sendOutbound, which
 * never reads a body (decision 234).
 */
export async function readOutbound(request: OutboundRead): Promise<OutboundAnswer> {
  const url = new URL(request.url);
  const client = await clientFor(url, request.rule);
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        headers: request.headers,
        lookup: guardedLookup(request.rule, request.lookup),
        agent: false,
        signal: AbortSignal.timeout(request.timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > request.maxBytes) {
            res.destroy();
            reject(new OutboundError('unreachable', ANSWER_TOO_LARGE));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (err) => reject(classify(err)));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', (err) => reject(classify(err)));
    req.end();
  });
}

/**
 * clientFor checks what can be checked before connecting (an http(s) URL; an address literal
 * under the rule, since a literal never reaches the lookup, which checks names) and answers the
 * module that requests it; a refusal is an OutboundError.
 */
async function clientFor(url: URL, rule: OutboundRule): Promise<typeof http | typeof https> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new OutboundError('unreachable', FAILURE_REASONS.unreachable);
  }
  try {
    await resolveOutboundLiteral(url.hostname, rule);
  } catch (err) {
    throw classify(err);
  }
  return url.protocol === 'https:' ? https : http;
}

async function resolveOutboundLiteral(hostname: string, rule: OutboundRule): Promise<void> {
  const host = bareHost(hostname);
  if (isIP(host) !== 0) await resolveOutbound(host, rule);
}
