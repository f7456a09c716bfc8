// The benchmark's comparison server: Fastify with the plugins and request hook Baton's app
// registers (cookie, the same security headers, rate limit, logger at the same level), answering
// each captured GET path with the identical JSON body from memory. Its throughput is the limit
// the real server's read endpoints are measured against, side by side on the same machine.
// Started by scripts/bench/run.ts: PORT, and BENCH_BODIES naming a JSON file { path: body }.
import { readFileSync } from 'node:fs';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { helmetOptions, securityHeaders } from '../../src/server/http/security-headers';

const bodies = JSON.parse(readFileSync(process.env.BENCH_BODIES ?? '', 'utf8')) as Record<
  string,
  string
>;

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'warn' } });
await app.register(fastifyCookie);
// Baton's security headers, computed once as Baton computes them, set by the same kind of hook.
const headers = securityHeaders(helmetOptions({ isProduction: false }));
app.addHook('onRequest', (_req, reply, done) => {
  reply.headers(headers);
  done();
});
await app.register(fastifyRateLimit, { global: false });
app.addHook('onRequest', async (req, reply) => {
  if (!req.url.startsWith('/api/')) return;
  reply.header('Cache-Control', 'no-store');
  // Baton reads the session cookie here; the comparison only parses it.
  void req.cookies.baton_session;
});
for (const [url, body] of Object.entries(bodies)) {
  app.get(url.split('?')[0], async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(body),
  );
}
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(
  `listening ${typeof address === 'object' && address ? address.port : process.env.PORT}\n`,
);
