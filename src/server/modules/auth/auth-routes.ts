import type { FastifyInstance, FastifyReply } from 'fastify';
import { LoginInputSchema } from '../../../shared/contracts/auth';
import type { AppDeps } from '../../deps';
import { AppError, notFound, parseInput } from '../../http/errors';
import { requireUser } from '../../http/request-context';
import { createSession, deleteSession, sessionCookie } from '../sessions/session-service';
import { passwordMatches, signInByEmail } from './auth-service';
import { oidcRoutes } from './oidc-routes';

export async function authRoutes(app: FastifyInstance, deps: AppDeps) {
  const { config, database, clock, cipher } = deps;

  const cookie = sessionCookie(config);

  async function startSession(reply: FastifyReply, userId: number) {
    const { token, expiresAt } = await createSession(database.db, clock, config.session, userId);
    reply.setCookie(cookie.name, token, { ...cookie.options, expires: expiresAt });
  }

  await app.register(oidcRoutes, { ...deps, startSession });

  app.get('/api/auth/options', async () => ({
    localLogin: Boolean(config.localLoginPassword),
    // The Google button needs an OpenID Connect client (a Firebase project alone only takes tokens).
    google: Boolean(config.oidc.clientId),
    companyDomain: config.companyDomain,
  }));

  app.get('/api/auth/user', async (req) => ({ user: requireUser(req) }));

  app.post(
    '/api/auth/login',
    { config: { rateLimit: { max: config.signInRateLimit, timeWindow: '1 minute' } } },
    async (req, reply) => {
      // Local sign-in exists for demos, development and tests; there is no built-in password.
      if (!config.localLoginPassword)
        throw notFound('Local sign-in is not enabled on this server.');
      const input = parseInput(LoginInputSchema, req.body);
      if (!passwordMatches(input.password, config.localLoginPassword)) {
        throw new AppError('INVALID_CREDENTIALS', 'Invalid credentials');
      }
      const user = await signInByEmail({ db: database.db, cipher, clock }, input.email);
      await startSession(reply, user.id);
      req.log.info({ userId: user.id }, 'signed in with local password');
      return { user };
    },
  );

  app.post('/api/auth/logout', async (req, reply) => {
    if (req.principal) await deleteSession(database.db, req.principal.tokenHash);
    reply.clearCookie(cookie.name, cookie.options);
    return { message: 'Logged out' };
  });
}
