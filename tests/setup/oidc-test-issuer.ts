import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/**
 * A loopback stand-in for an OpenID provider, for API tests only: discovery, a JWKS of local keys,
 * and a token endpoint that checks the client, the redirect URI and the PKCE verifier. Tests sign
 * crafted ID tokens with `sign` and hand out codes with `authorize`.
 */

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export interface TestKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  pair: KeyPair;
  published: boolean;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  claims: JWTPayload;
  /** the authorization request asked for offline_access: the exchange gives a refresh token */
  offline: boolean;
}

/** A refresh token's grant: whose claims a renewed ID token carries. */
interface RefreshGrant {
  clientId: string;
  claims: JWTPayload;
}

export interface TestIssuer {
  issuer: string;
  jwksUrl: string;
  /** how often the JWKS was fetched */
  jwksFetches: () => number;
  /** a signing key (published in the JWKS unless `published: false`) */
  addKey(options?: { alg?: 'RS256' | 'ES256'; published?: boolean }): Promise<TestKey>;
  /** sign claims with a key; defaults fill iss, iat, exp */
  sign(
    claims: JWTPayload,
    options?: { key?: TestKey; header?: Record<string, unknown>; now?: Date },
  ): Promise<string>;
  /**
   * authorize plays the provider's login: given the authorization URL Baton redirected to, it
   * returns the callback query (code and state) for an account with these claims.
   */
  authorize(authorizationUrl: string, claims: JWTPayload): URLSearchParams;
  /** make the token endpoint answer this OAuth error next time */
  failTokenRequestWith(error: string | null): void;
  /** how many refresh_token grants the token endpoint answered with a new ID token */
  renewals: () => number;
  /** revoke every refresh token: later refresh_token grants answer invalid_grant */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => resolve(body));
  });

/** startTestIssuer starts the stand-in provider on 127.0.0.1 with one published RS256 key. */
export async function startTestIssuer(
  options: { clientId?: string; clientSecret?: string; now?: () => Date } = {},
): Promise<TestIssuer> {
  const clientId = options.clientId ?? 'baton-test-client';
  const clientSecret = options.clientSecret ?? 'baton-test-secret';
  const now = options.now ?? (() => new Date());
  const keys: TestKey[] = [];
  const codes = new Map<string, PendingCode>();
  const refreshGrants = new Map<string, RefreshGrant>();
  let renewed = 0;
  let fetches = 0;
  let tokenError: string | null = null;
  let issuer = '';

  /**
   * sameClient checks HTTP Basic client authentication as RFC 6749 2.3.1 has it: the id and the
   * secret are form-url-encoded before they are joined and base64-encoded.
   */
  const sameClient = (authorization: string | undefined) => {
    const [scheme, encoded] = (authorization ?? '').split(' ');
    if (scheme !== 'Basic' || !encoded) return false;
    const decoded = Buffer.from(encoded, 'base64').toString();
    const colon = decoded.indexOf(':');
    const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    try {
      return (
        formDecode(decoded.slice(0, colon)) === clientId &&
        formDecode(decoded.slice(colon + 1)) === clientSecret
      );
    } catch {
      return false;
    }
  };

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        scopes_supported: ['openid', 'email', 'profile', 'offline_access'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      });
    }
    if (url.pathname === '/jwks') {
      fetches += 1;
      const published: JWK[] = [];
      for (const k of keys.filter((k) => k.published)) {
        published.push({
          ...(await exportJWK(k.pair.publicKey)),
          kid: k.kid,
          alg: k.alg,
          use: 'sig',
        });
      }
      return json(res, 200, { keys: published });
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      if (!sameClient(req.headers.authorization)) {
        return json(res, 401, { error: 'invalid_client' });
      }
      if (tokenError) {
        const error = tokenError;
        tokenError = null;
        return json(res, 400, { error });
      }
      if (form.get('grant_type') === 'refresh_token') {
        const grant = refreshGrants.get(form.get('refresh_token') ?? '');
        if (!grant) return json(res, 400, { error: 'invalid_grant' });
        renewed += 1;
        const idToken = await sign({ aud: grant.clientId, ...grant.claims });
        return json(res, 200, { access_token: 'opaque', token_type: 'Bearer', id_token: idToken });
      }
      const pending = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        !pending ||
        form.get('grant_type') !== 'authorization_code' ||
        form.get('redirect_uri') !== pending.redirectUri ||
        challenge !== pending.challenge
      ) {
        return json(res, 400, { error: 'invalid_grant' });
      }
      const idToken = await sign({ aud: pending.clientId, ...pending.claims });
      let refreshToken: string | undefined;
      if (pending.offline) {
        refreshToken = randomBytes(24).toString('base64url');
        // A renewed ID token carries no nonce and is issued afresh (OpenID Connect Core 12.2).
        const { nonce: _nonce, iat: _iat, exp: _exp, ...claims } = pending.claims;
        refreshGrants.set(refreshToken, { clientId: pending.clientId, claims });
      }
      return json(res, 200, {
        access_token: 'opaque',
        token_type: 'Bearer',
        id_token: idToken,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
      });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function addKey(opts: { alg?: 'RS256' | 'ES256'; published?: boolean } = {}) {
    const alg = opts.alg ?? 'RS256';
    const key: TestKey = {
      kid: randomBytes(6).toString('hex'),
      alg,
      pair: await generateKeyPair(alg, { extractable: true }),
      published: opts.published ?? true,
    };
    keys.push(key);
    return key;
  }

  async function sign(
    claims: JWTPayload,
    opts: { key?: TestKey; header?: Record<string, unknown>; now?: Date } = {},
  ) {
    const key = opts.key ?? keys[0];
    const at = Math.floor((opts.now ?? now()).getTime() / 1000);
    return new SignJWT({ iss: issuer, iat: at, exp: at + 3600, ...claims })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...opts.header })
      .sign(key.pair.privateKey);
  }

  await addKey();

  return {
    get issuer() {
      return issuer;
    },
    jwksUrl: `${issuer}/jwks`,
    jwksFetches: () => fetches,
    addKey,
    sign,
    authorize(authorizationUrl, claims) {
      const request = new URL(authorizationUrl).searchParams;
      const code = randomBytes(16).toString('base64url');
      codes.set(code, {
        clientId: request.get('client_id') ?? '',
        redirectUri: request.get('redirect_uri') ?? '',
        challenge: request.get('code_challenge') ?? '',
        claims: { nonce: request.get('nonce') ?? undefined, ...claims },
        offline: (request.get('scope') ?? '').split(' ').includes('offline_access'),
      });
      return new URLSearchParams({ code, state: request.get('state') ?? '' });
    },
    failTokenRequestWith(error) {
      tokenError = error;
    },
    renewals: () => renewed,
    revokeRefreshTokens: () => refreshGrants.clear(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
