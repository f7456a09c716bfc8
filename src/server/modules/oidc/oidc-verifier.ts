import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { emailDomainOf } from '../../../shared/contracts/invitations';
import { AppError } from '../../http/errors';

/**
 * Verification of OpenID Connect ID tokens (Google sign-in, and Firebase ID tokens): signature
 * against the issuer's published keys, an algorithm allow-list, iss, aud, azp, exp / nbf / iat with
 * a small skew, nonce, email_verified and the company domain (decision 011).
 */

/** Signature algorithms accepted; anything else ('none', HS256 with a public key...) is refused. */
const ALLOWED_ALGORITHMS = ['RS256', 'ES256', 'PS256'];
/** Clock skew tolerated on exp, nbf and iat. */
export const CLOCK_SKEW_SECONDS = 60;
/** A token issued longer ago than this is refused, whatever its exp says. */
const MAX_TOKEN_AGE_SECONDS = 24 * 3600;
/** A key set is refetched for an unknown key id at most this often. */
const JWKS_COOLDOWN_MS = 30_000;

/** The person an ID token proves. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
  nonce: string | null;
  jti: string | null;
  /** expiry of the token (for replay memory) */
  expiresAt: Date;
}

export interface VerifyOptions {
  /** accepted values of iss (Google also issues the bare 'accounts.google.com') */
  issuers: string[];
  /** our client id (OIDC) or project id (Firebase) */
  audience: string;
  keys: JWTVerifyGetKey;
  now: Date;
  companyDomain: string;
  /** the nonce this browser's sign-in sent, when the flow has one */
  expectedNonce?: string;
}

/** createKeySet returns a cached key set for a JWKS URL: refetched on an unknown kid, at most every 30 s. */
export function createKeySet(url: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(url), {
    cooldownDuration: JWKS_COOLDOWN_MS,
    cacheMaxAge: 10 * 60_000,
    timeoutDuration: 5_000,
  });
}

/** invalidToken is the 401 for an ID token that is not valid for us. */
export const invalidToken = (message = 'The sign-in token could not be verified.') =>
  new AppError('UNAUTHENTICATED', message);

/**
 * verifyIdToken returns the identity an ID token proves, or throws: 401 for a token that is not
 * valid for us (signature, algorithm, issuer, audience, times, nonce, unverified email), 403 for a
 * genuine identity outside the company domain, 503 when the issuer's keys cannot be fetched.
 */
export async function verifyIdToken(
  token: string,
  options: VerifyOptions,
): Promise<VerifiedIdentity> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, options.keys, {
      algorithms: ALLOWED_ALGORITHMS,
      issuer: options.issuers,
      audience: options.audience,
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: options.now,
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      requiredClaims: ['sub', 'exp', 'iat'],
    }));
  } catch (err) {
    throw toVerificationError(err);
  }

  // azp, when present, names the party the token was issued to: it must be us.
  if (payload.azp !== undefined && payload.azp !== options.audience) throw invalidToken();
  if (options.expectedNonce !== undefined && payload.nonce !== options.expectedNonce) {
    throw invalidToken('The sign-in response does not belong to this browser. Please try again.');
  }
  const email = typeof payload.email === 'string' ? payload.email.trim() : '';
  if (!email) throw invalidToken('The Google account has no email address.');
  if (payload.email_verified !== true && payload.email_verified !== 'true') {
    throw invalidToken('The Google account’s email address is not verified.');
  }
  const domain = options.companyDomain.toLowerCase();
  const hd = typeof payload.hd === 'string' ? payload.hd.toLowerCase() : undefined;
  if ((hd !== undefined && hd !== domain) || emailDomainOf(email) !== domain) {
    throw new AppError('FORBIDDEN', `Please sign in with your ${domain} Google account.`);
  }
  return {
    issuer: payload.iss as string,
    subject: payload.sub as string,
    email,
    name: typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim() : null,
    nonce: typeof payload.nonce === 'string' ? payload.nonce : null,
    jti: typeof payload.jti === 'string' ? payload.jti : null,
    expiresAt: new Date((payload.exp as number) * 1000),
  };
}

function toVerificationError(err: unknown): AppError {
  if (err instanceof errors.JWTExpired) {
    return invalidToken('The sign-in token has expired. Please sign in again.');
  }
  if (err instanceof errors.JWKSTimeout) return providerUnavailable();
  // A key set that cannot be fetched or parsed is the provider's fault, not the token's.
  if (
    err instanceof errors.JOSEError &&
    (err.code === 'ERR_JWKS_INVALID' || /JSON Web Key Set/.test(err.message)) &&
    !(err instanceof errors.JWKSNoMatchingKey) &&
    !(err instanceof errors.JWKSMultipleMatchingKeys)
  ) {
    return providerUnavailable();
  }
  if (err instanceof errors.JOSEError) return invalidToken();
  if (err instanceof TypeError || (err as { name?: string }).name === 'AbortError') {
    return providerUnavailable();
  }
  return invalidToken();
}

const providerUnavailable = () =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'The identity provider could not be reached. Please try again shortly.',
  );
