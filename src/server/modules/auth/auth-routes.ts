import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AuthOptionsSchema,
  AuthResponseSchema,
  LoginInputSchema,
} from '../../../shared/contracts/auth';
import { MessageSchema } from '../../../shared/contracts/primitives';
import type { AppDeps } from '../../core/deps';
import { hashToken } from '../../crypto/token-hash';
import { AppError, notFound } from '../../http/errors';
import { answers } from '../../http/openapi';
import { requireUser, signedIn } from '../../http/request-context';
import { createSession, deleteSession, sessionCookie } from '../sessions/session-service';
import {
  endTokenSyncs,
  startTokenSync,
  type TokenSyncStart,
} from '../token-sync/token-sync-service';
import { passwordMatches, signInByEmail } from './auth-service';
import { oidcRoutes } from './oidc-routes';

export async function authRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config, database, clock, cipher } = deps;

  const cookie = sessionCookie(config);

  /**
   * startSession signs the browser in; a sign-in through the identity provider hands its ID token
   * to the token sync when it is on (decision 228), in the same transaction: the POST is queued,
   * never sent here, so the companion service can neither slow nor fail the sign-in.
   */
  async function startSession(reply: FastifyReply, userId: number, sync?: TokenSyncStart) {
    const { token, expiresAt } = await database.db.transaction(async (tx) => {
      const session = await createSession(tx, clock, config.session, userId);
      if (sync && config.tokenSyncUrl) {
        const tokenHash = hashToken(session.token);
        await startTokenSync(tx, cipher, clock.now(), { tokenHash, userId }, sync);
      }
      return session;
    });
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
        await database.db.transaction(async (tx) => {
          // The companion service hears of the sign-out (decision 228) with the session's end.
          await endTokenSyncs(tx, cipher, clock.now(), { sessionTokenHash: principal.tokenHash });
          await deleteSession(tx, principal.tokenHash);
        });
      }
      reply.clearCookie(cookie.name, cookie.options);
      return { message: 'Logged out' };
    },
  );
}
