import type { JWTVerifyGetKey } from 'jose';
import * as openid from 'openid-client';
import { AppError } from '../../http/errors';
import { CLOCK_SKEW_SECONDS, createKeySet, invalidToken } from './oidc-verifier';

/**
 * The relying-party side of OpenID Connect against one configured issuer, on openid-client
 * (decision 191): discovery, the authorization request (code flow, PKCE S256, state, nonce,
 * prompt=select_account) and the code exchange, whose ID token openid-client validates (issuer,
 * audience, azp, times, nonce). Baton's own policy on the ID token (signature against the
 * issuer's keys with an algorithm allow-list, verified email, company domain) is oidc-verifier.ts,
 * shared with POST /api/auth/firebase.
 */

const HTTP_TIMEOUT_SECONDS = 10;
const GOOGLE_ISSUER = 'https://accounts.google.com';
const SCOPE = 'openid email profile';

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  companyDomain: string;
  /** Production talks to https issuers only; elsewhere a loopback issuer may speak plain http. */
  isProduction: boolean;
  /**
   * token sync is on (decision 228): ask for a refresh token (offline access) where the provider
   * offers one, so the server can renew the ID token the companion service holds
   */
  offline?: boolean;
}

/** What the token endpoint gave for a sign-in or a renewal. */
export interface ProviderTokens {
  idToken: string;
  /** present when offline access was asked for and granted (or rotated on renewal) */
  refreshToken?: string;
}

/** Provider failures the sign-in popup tells apart. */
export class ProviderError extends Error {
  constructor(
    /** refused: the provider will not sign in this client (operation not allowed) */
    readonly kind: 'refused' | 'error' | 'unreachable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
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

/** newFlowSecrets returns a fresh state, nonce and PKCE verifier (openid-client's generators). */
export function newFlowSecrets() {
  return {
    state: openid.randomState(),
    nonce: openid.randomNonce(),
    verifier: openid.randomPKCECodeVerifier(),
  };
}

/**
 * allowsPlainHttp: openid-client refuses http issuers; Baton lets it use one only outside
 * production and only on this machine (the loopback providers of the tests and of a developer).
 */
export function allowsPlainHttp(issuer: string, isProduction: boolean): boolean {
  if (isProduction) return false;
  const url = new URL(issuer);
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** OidcClient talks to one issuer; discovery and the key set are fetched once and cached. */
export class OidcClient {
  private discovered?: Promise<openid.Configuration>;
  private keySet?: JWTVerifyGetKey;
  private readonly plainHttp: boolean;

  constructor(readonly settings: OidcClientSettings) {
    this.plainHttp = allowsPlainHttp(settings.issuer, settings.isProduction);
  }

  /** discover returns the issuer's configuration (cached; a failed fetch is retried next time). */
  private discover(): Promise<openid.Configuration> {
    this.discovered ??= openid
      .discovery(new URL(this.settings.issuer), this.settings.clientId, undefined, undefined, {
        timeout: HTTP_TIMEOUT_SECONDS,
        execute: this.plainHttp ? [openid.allowInsecureRequests] : [],
      })
      .catch((err) => {
        this.discovered = undefined;
        throw providerErrorOf(err, 'discovery');
      });
    return this.discovered;
  }

  /**
   * configuration returns a client configuration over the discovered metadata whose idea of
   * "now" is the app's clock, so ID token times are judged by the same clock as everything else.
   */
  private async configuration(now: Date): Promise<openid.Configuration> {
    const discovered = await this.discover();
    const metadata = discovered.serverMetadata();
    const config = new openid.Configuration(
      metadata,
      this.settings.clientId,
      {
        [openid.clockSkew]: Math.round((now.getTime() - Date.now()) / 1000),
        [openid.clockTolerance]: CLOCK_SKEW_SECONDS,
      },
      this.clientAuthentication(metadata.token_endpoint_auth_methods_supported),
    );
    config.timeout = HTTP_TIMEOUT_SECONDS;
    if (this.plainHttp) openid.allowInsecureRequests(config);
    return config;
  }

  /** Client authentication at the token endpoint: Basic when the issuer takes it, else the body. */
  private clientAuthentication(methods?: string[]): openid.ClientAuth {
    const { clientSecret } = this.settings;
    if (!clientSecret) return openid.None();
    return (methods ?? ['client_secret_basic']).includes('client_secret_basic')
      ? openid.ClientSecretBasic(clientSecret)
      : openid.ClientSecretPost(clientSecret);
  }

  /** keys returns the issuer's published signing keys (jose caches and refreshes them). */
  async keys(): Promise<JWTVerifyGetKey> {
    const { jwks_uri } = (await this.discover()).serverMetadata();
    if (!jwks_uri) throw new ProviderError('error', 'discovery lacks jwks_uri');
    this.keySet ??= createKeySet(jwks_uri);
    return this.keySet;
  }

  /** issuers returns the iss values an ID token of this provider may carry. */
  async issuers(): Promise<string[]> {
    const { issuer } = (await this.discover()).serverMetadata();
    // Google documents both spellings of its issuer in ID tokens.
    return issuer === GOOGLE_ISSUER ? [issuer, 'accounts.google.com'] : [issuer];
  }

  /** authorizationUrl returns where the popup goes to sign in. */
  async authorizationUrl(params: {
    redirectUri: string;
    state: string;
    nonce: string;
    verifier: string;
  }): Promise<string> {
    const config = await this.discover();
    const metadata = config.serverMetadata();
    const isGoogle = metadata.issuer === GOOGLE_ISSUER;
    const parameters: Record<string, string> = {
      redirect_uri: params.redirectUri,
      scope: SCOPE,
      state: params.state,
      nonce: params.nonce,
      code_challenge: await openid.calculatePKCECodeChallenge(params.verifier),
      code_challenge_method: 'S256',
      // The account chooser is always shown (specification section 9).
      prompt: 'select_account',
    };
    // Google narrows the chooser to the company's accounts; the ID token's hd is still checked.
    if (isGoogle) parameters.hd = this.settings.companyDomain;
    // Token sync (decision 228): a refresh token, so the server renews the companion's ID token.
    // Google grants one with access_type=offline, other providers with the offline_access scope;
    // both give it only on a consent prompt (OpenID Connect Core 11), so consent is asked too.
    if (this.settings.offline) {
      if (isGoogle) {
        parameters.access_type = 'offline';
        parameters.prompt = 'select_account consent';
      } else if (metadata.scopes_supported?.includes('offline_access')) {
        parameters.scope = `${SCOPE} offline_access`;
        parameters.prompt = 'select_account consent';
      }
    }
    try {
      return openid.buildAuthorizationUrl(config, parameters).toString();
    } catch (err) {
      throw providerErrorOf(err, 'authorization request');
    }
  }

  /**
   * exchangeCode trades an authorization code (with its PKCE verifier) for an ID token that
   * openid-client has validated against the nonce this browser's flow sent. The caller has
   * already matched the state against the flow cookie.
   */
  async exchangeCode(params: {
    code: string;
    iss?: string;
    redirectUri: string;
    verifier: string;
    nonce: string;
    now: Date;
  }): Promise<ProviderTokens> {
    const config = await this.configuration(params.now);
    const callback = new URL(params.redirectUri);
    callback.searchParams.set('code', params.code);
    if (params.iss !== undefined) callback.searchParams.set('iss', params.iss);
    let tokens: Awaited<ReturnType<typeof openid.authorizationCodeGrant>>;
    try {
      tokens = await openid.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: params.verifier,
        expectedNonce: params.nonce,
        expectedState: openid.skipStateCheck,
        idTokenExpected: true,
      });
    } catch (err) {
      throw idTokenRefusalOf(err) ?? providerErrorOf(err, 'token endpoint');
    }
    if (!tokens.id_token) {
      throw new ProviderError('error', 'The identity provider returned no ID token.');
    }
    return { idToken: tokens.id_token, refreshToken: tokens.refresh_token };
  }

  /**
   * renew trades a refresh token for a fresh ID token (token sync, decision 228), validated by
   * openid-client like the sign-in's (issuer, audience, times); the caller checks it names the
   * same person. Throws ProviderError: `unreachable` is worth trying again, the rest is not.
   */
  async renew(refreshToken: string, now: Date): Promise<ProviderTokens> {
    const config = await this.configuration(now);
    let tokens: Awaited<ReturnType<typeof openid.refreshTokenGrant>>;
    try {
      tokens = await openid.refreshTokenGrant(config, refreshToken);
    } catch (err) {
      if (idTokenRefusalOf(err)) throw new ProviderError('error', 'renewed ID token refused');
      throw providerErrorOf(err, 'token endpoint');
    }
    if (!tokens.id_token) {
      throw new ProviderError('error', 'The identity provider renewed no ID token.');
    }
    return { idToken: tokens.id_token, refreshToken: tokens.refresh_token };
  }
}

const clients = new WeakMap<object, OidcClient>();

/**
 * oidcClientOf returns the one OidcClient of a configuration (sign-in routes and the engine's
 * token renewal share its discovery and keys), or null without OIDC_CLIENT_ID.
 */
export function oidcClientOf(config: {
  oidc: { issuer: string; clientId?: string; clientSecret?: string };
  companyDomain: string;
  isProduction: boolean;
  tokenSyncUrl: string | null;
}): OidcClient | null {
  const { issuer, clientId, clientSecret } = config.oidc;
  if (!clientId) return null;
  let client = clients.get(config);
  if (!client) {
    client = new OidcClient({
      issuer,
      clientId,
      clientSecret,
      companyDomain: config.companyDomain,
      isProduction: config.isProduction,
      offline: config.tokenSyncUrl !== null,
    });
    clients.set(config, client);
  }
  return client;
}

const codeOf = (err: unknown) =>
  err instanceof openid.ClientError || err instanceof openid.ResponseBodyError
    ? err.code
    : undefined;

/**
 * idTokenRefusalOf: an ID token that openid-client refused for its claims (another nonce, another
 * audience, expired...) is the token's fault, answered 401 like oidc-verifier.ts would.
 */
function idTokenRefusalOf(err: unknown): AppError | null {
  const code = codeOf(err);
  if (code !== 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' && code !== 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    return null;
  }
  // openid-client wraps oauth4webapi's error, whose cause names the claim that failed.
  const claim = ((err as Error).cause as { cause?: { claim?: string } } | undefined)?.cause?.claim;
  if (claim === 'exp') return invalidToken('The sign-in token has expired. Please sign in again.');
  if (claim === 'nonce') {
    return invalidToken('The sign-in response does not belong to this browser. Please try again.');
  }
  return invalidToken();
}

/** providerErrorOf turns what openid-client threw into a ProviderError the popup tells apart. */
function providerErrorOf(err: unknown, step: string): ProviderError {
  if (err instanceof ProviderError) return err;
  // The authorization server's own OAuth error (RFC 6749 5.2), e.g. invalid_client.
  if (
    err instanceof openid.ResponseBodyError ||
    err instanceof openid.WWWAuthenticateChallengeError
  ) {
    const oauthError =
      err instanceof openid.ResponseBodyError ? err.error : (err.cause[0]?.parameters.error ?? '');
    return new ProviderError(
      classifyProviderError(oauthError),
      `${step} answered ${oauthError || err.status}`,
      { cause: err },
    );
  }
  const code = codeOf(err);
  // A network failure, a time-out or an answer that is not the protocol's: the provider is away.
  if (
    err instanceof TypeError ||
    code === 'OAUTH_TIMEOUT' ||
    code === 'OAUTH_ABORT' ||
    code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' ||
    code === 'OAUTH_RESPONSE_IS_NOT_JSON'
  ) {
    return new ProviderError('unreachable', 'The identity provider could not be reached.', {
      cause: err,
    });
  }
  // Anything else (the discovered issuer is not the configured one, an http issuer in
  // production, a malformed answer): the provider or its configuration is wrong.
  return new ProviderError('error', `${step} failed: ${(err as Error).message}`, { cause: err });
}

/** providerAppError turns a provider failure into the API's error (used by POST /api/auth/firebase). */
export function providerAppError(err: ProviderError): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    err.kind === 'unreachable'
      ? 'The identity provider could not be reached. Please try again shortly.'
      : 'The identity provider is misconfigured.',
  );
}
