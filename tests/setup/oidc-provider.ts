import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { interactionPolicy } from 'oidc-provider';

/**
 * A real OpenID provider (the oidc-provider package) on 127.0.0.1, for browser tests of sign-in
 * with Google. Its login page is a minimal account chooser: the test types an email address, and
 * the provider signs that account in (subject derived from the address) with a verified email.
 */

export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** the subject the provider gives an email address */
  subjectOf(email: string): string;
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
      if (body.length > 10_000) req.destroy();
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

const nameOf = (email: string) =>
  email
    .split('@')[0]
    .split(/[._-]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

/** startOpenIdProvider starts the provider for one client whose callback is `redirectUri`. */
export async function startOpenIdProvider(options: {
  redirectUri: string;
  port?: number;
}): Promise<TestOpenIdProvider> {
  const clientId = 'baton-e2e';
  const clientSecret = 'baton-e2e-client-secret';
  const subjectOf = (email: string) =>
    `sub-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16)}`;
  const emailsBySubject = new Map<string, string>();

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'e2e-key', alg: 'RS256', use: 'sig' };

  const policy = interactionPolicy.base();
  // Google's account chooser: Baton always asks for it (prompt=select_account).
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ['baton-e2e-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Put the email and name in the ID token itself, as Google does.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 3600,
      AuthorizationCode: 60,
    },
    features: { devInteractions: { enabled: false } },
    interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const email = emailsBySubject.get(sub);
      if (!email) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email, email_verified: true, name: nameOf(email) }),
      };
    },
  });
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><title>Choose an account</title></head>
<body><main><h1>Choose an account</h1>
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label for="email">Email</label> <input id="email" name="email" type="email" required>
<button type="submit">Continue</button>
</form></main></body></html>`);
      return;
    }
    const email = (await readForm(req)).get('email')?.trim() ?? '';
    const accountId = subjectOf(email);
    emailsBySubject.set(accountId, email);
    const grant = new provider.Grant({
      accountId,
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { select_account: {}, login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  server.on('request', (req, res) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
    if (match) {
      interaction(req, res, match[1]).catch((err) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    subjectOf,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
