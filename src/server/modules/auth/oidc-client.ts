import { createHash, randomBytes } from 'node:crypto';
import type { JWTVerifyGetKey } from 'jose';
import { AppError } from '../../http/errors';
import { createKeySet } from './oidc-verifier';

/**
 * The relying-party side of OpenID Connect against one configured issuer: discovery, the
 * authorization request (code flow, PKCE S256, state, nonce, prompt=select_account) and the code
 * exchange. ID tokens are verified by oidc-verifier.ts with the key set discovered here.
 */

const HTTP_TIMEOUT_MS = 10_000;
const GOOGLE_ISSUER = 'https://accounts.google.com';

export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  token_endpoint_auth_methods_supported?: string[];
}

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  companyDomain: string;
}

/** Provider failures the sign-in popup tells apart. */
export class ProviderError extends Error {
  constructor(
    /** refused: the provider will not sign in this client (operation not allowed) */
    readonly kind: 'refused' | 'error' | 'unreachable',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Errors an authorization server answers that mean it will not do this sign-in for this client. */
const REFUSING_ERRORS = new Set([
  'unauthorized_client',
  'invalid_client',
  'unsupported_response_type',
  'invalid_scope',
]);

/** classifyProviderError tells a refusal (operation not allowed) from any other provider error. */
export function classifyProviderError(code: string): 'refused' | 'error' {
  return REFUSING_ERRORS.has(code) ? 'refused' : 'error';
}

const b64url = (buf: Buffer) => buf.toString('base64url');

/** newFlowSecrets returns a fresh state, nonce and PKCE verifier with its S256 challenge. */
export function newFlowSecrets() {
  const verifier = b64url(randomBytes(32));
  return {
    state: b64url(randomBytes(32)),
    nonce: b64url(randomBytes(32)),
    verifier,
    challenge: b64url(createHash('sha256').update(verifier).digest()),
  };
}

/** OidcClient talks to one issuer; discovery and the key set are fetched once and cached. */
export class OidcClient {
  private metadata?: Promise<ProviderMetadata>;
  private keySet?: JWTVerifyGetKey;

  constructor(readonly settings: OidcClientSettings) {}

  /** discover returns the issuer's metadata (cached; a failed fetch is retried next time). */
  discover(): Promise<ProviderMetadata> {
    this.metadata ??= fetchMetadata(this.settings.issuer).catch((err) => {
      this.metadata = undefined;
      throw err;
    });
    return this.metadata;
  }

  /** keys returns the issuer's published signing keys (jose caches and refreshes them). */
  async keys(): Promise<JWTVerifyGetKey> {
    const metadata = await this.discover();
    this.keySet ??= createKeySet(metadata.jwks_uri);
    return this.keySet;
  }

  /** issuers returns the iss values an ID token of this provider may carry. */
  async issuers(): Promise<string[]> {
    const { issuer } = await this.discover();
    // Google documents both spellings of its issuer in ID tokens.
    return issuer === GOOGLE_ISSUER ? [issuer, 'accounts.google.com'] : [issuer];
  }

  /** authorizationUrl returns where the popup goes to sign in. */
  async authorizationUrl(params: {
    redirectUri: string;
    state: string;
    nonce: string;
    challenge: string;
  }): Promise<string> {
    const metadata = await this.discover();
    const url = new URL(metadata.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('scope', 'openid email profile');
    url.searchParams.set('state', params.state);
    url.searchParams.set('nonce', params.nonce);
    url.searchParams.set('code_challenge', params.challenge);
    url.searchParams.set('code_challenge_method', 'S256');
    // The account chooser is always shown (specification section 9).
    url.searchParams.set('prompt', 'select_account');
    // Google narrows the chooser to the company's accounts; the ID token's hd is still checked.
    if (metadata.issuer === GOOGLE_ISSUER) url.searchParams.set('hd', this.settings.companyDomain);
    return url.toString();
  }

  /** exchangeCode trades an authorization code (with its PKCE verifier) for an ID token. */
  async exchangeCode(params: {
    code: string;
    redirectUri: string;
    verifier: string;
  }): Promise<string> {
    const metadata = await this.discover();
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code: params.code,
      redirect_uri: params.redirectUri,
      code_verifier: params.verifier,
    });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const { clientId, clientSecret } = this.settings;
    const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    if (!clientSecret) {
      body.set('client_id', clientId);
    } else if (methods.includes('client_secret_basic')) {
      const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
      headers.authorization = `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
    } else {
      body.set('client_id', clientId);
      body.set('client_secret', clientSecret);
    }
    let response: Response;
    try {
      response = await fetch(metadata.token_endpoint, {
        method: 'POST',
        headers,
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
    } catch {
      throw new ProviderError('unreachable', 'The identity provider could not be reached.');
    }
    const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok) {
      const code = typeof json?.error === 'string' ? json.error : 'server_error';
      throw new ProviderError(classifyProviderError(code), `token endpoint answered ${code}`);
    }
    if (typeof json?.id_token !== 'string') {
      throw new ProviderError('error', 'The identity provider returned no ID token.');
    }
    return json.id_token;
  }
}

async function fetchMetadata(issuer: string): Promise<ProviderMetadata> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
  } catch {
    throw new ProviderError('unreachable', 'The identity provider could not be reached.');
  }
  const doc = (await response.json().catch(() => null)) as Partial<ProviderMetadata> | null;
  if (!response.ok || !doc) {
    throw new ProviderError('unreachable', `discovery answered ${response.status}`);
  }
  // The discovered issuer must be the configured one (OpenID Connect Discovery 4.3).
  if (doc.issuer?.replace(/\/$/, '') !== issuer.replace(/\/$/, '')) {
    throw new ProviderError('error', `discovery names issuer ${doc.issuer}, not ${issuer}`);
  }
  for (const key of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
    if (typeof doc[key] !== 'string') throw new ProviderError('error', `discovery lacks ${key}`);
  }
  return doc as ProviderMetadata;
}

/** toAppError turns a provider failure into the API's error (used by POST /api/auth/firebase). */
export function providerAppError(err: ProviderError): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    err.kind === 'unreachable'
      ? 'The identity provider could not be reached. Please try again shortly.'
      : 'The identity provider is misconfigured.',
  );
}
