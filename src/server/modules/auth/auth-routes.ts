import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AuthOptionsSchema,
  AuthResponseSchema,
  LoginInputSchema,
} from '../../../shared/contracts/auth';
import { MessageSchema } from '../../../shared/contracts/primitives';
import type { AppDeps } from '../../core/deps';
import { AppError, notFound } from '../../http/errors';
import { answers } from '../../http/openapi';
import { requireUser, signedIn } from '../../http/request-context';
import { sessionCookie } from '../sessions/session-service';
import type { TokenSyncStart } from '../token-sync/token-sync-service';
import { closeSession, openSession, passwordMatches, signInByEmail } from './auth-service';
import { oidcRoutes } from './oidc-routes';

export async function authRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config, database, clock, cipher } = deps;

  const cookie = sessionCookie(config);
  const sessionDeps = { db: database.db, cipher, clock, config };

  /**
   * startSession signs the browser in: a session (openSession) in its cookie.
   */
  async function startSession(reply: FastifyReply, userId: number, sync?: TokenSyncStart) {
    const { token, expiresAt } = await openSession(sessionDeps, userId, sync);
    reply.setCookie(cookie.name, token, { ...cookie.options, expires: expiresAt });
  }

  await app.register(oidcRoutes, { ...deps, startSession });

  const localPassword = config.localLoginPassword;

  app.get(
    '/api/auth/options',
    { schema: { security: [], response: answers({ 200: AuthOptionsSchema }) } },
    async () => ({
      localLogin: Boolean(config.localLoginPassword),
      // The Google button needs an OpenID Connect client (a Firebase project alone only takes tokens).
      google: Boolean(config.oidc.clientId),
      companyDomain: config.companyDomain,
    }),
  );

  api.get(
    '/api/auth/user',
    { preValidation: signedIn, schema: { response: answers({ 200: AuthResponseSchema }, 401) } },
    async (req) => ({
      user: requireUser(req),
    }),
  );

  api.post(
    '/api/auth/login',
    {
      config: { rateLimit: { max: config.signInRateLimit, timeWindow: '1 minute' } },
      // Local sign-in exists for demos, development and tests; there is no built-in password.
      preValidation: async () => {
        if (!localPassword) {
          throw notFound('Local sign-in is not enabled on this server.');
        }
      },
      schema: {
        body: LoginInputSchema,
        security: [],
        response: answers({ 200: AuthResponseSchema }, 400, 401, 403, 404, 429),
      },
    },
    async (req, reply) => {
      const input = req.body;
      if (!localPassword || !passwordMatches(input.password, localPassword)) {
        throw new AppError('INVALID_CREDENTIALS', 'Invalid credentials');
      }
      const user = await signInByEmail({ db: database.db, cipher, clock }, input.email);
      await startSession(reply, user.id);
      req.log.info({ userId: user.id }, 'signed in with local password');
      return { user };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { security: [], response: answers({ 200: MessageSchema }) } },
    async (req, reply) => {
      const principal = req.principal;
      if (principal) {
        await closeSession(sessionDeps, principal.tokenHash);
      }
      reply.clearCookie(cookie.name, cookie.options);
      return { message: 'Logged out' };
    },
  );
}
