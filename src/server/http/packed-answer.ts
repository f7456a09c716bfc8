import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * The API reference's two large answers (decision 264): Scalar's 4.9 MB script and the 500 kB
 * OpenAPI document. Each is the same for everyone for the life of the process, so it is made and
 * compressed once, and sent compressed to a browser that accepts gzip.
 */

/** A body made once, with its gzip. */
export interface Packed {
  text: string;
  gzip: Buffer;
}

/** pack compresses a body once. */
export function pack(text: string): Packed {
  return { text, gzip: gzipSync(text, { level: 6 }) };
}

/** acceptsGzip tells whether the request takes a gzip-encoded answer. */
export function acceptsGzip(req: FastifyRequest): boolean {
  return /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
}

/**
 * sendPacked answers the packed body: gzip-encoded when the client accepts it, as is otherwise;
 * `Vary: Accept-Encoding` either way, so a cache keeps the two apart.
 */
export function sendPacked(req: FastifyRequest, reply: FastifyReply, packed: Packed) {
  reply.header('Vary', 'Accept-Encoding');
  if (!acceptsGzip(req)) return reply.send(packed.text);
  return reply.header('Content-Encoding', 'gzip').send(packed.gzip);
}
