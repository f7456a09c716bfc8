import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../../../../tests/setup/oidc-test-issuer';
import { allowsPlainHttp, newFlowSecrets, OidcClient, ProviderError } from './oidc-client';

describe('allowsPlainHttp: http issuers only on loopback, never in production', () => {
  test.each([
    ['http://127.0.0.1:3300', false, true],
    ['http://localhost:8080/realms/baton', false, true],
    ['http://[::1]:3300', false, true],
    ['http://127.0.0.1:3300', true, false],
    ['http://idp.example.com', false, false],
    ['http://10.0.0.5:3300', false, false],
    ['https://accounts.google.com', false, false],
  ])('%s in production=%s → %s', (issuer, isProduction, allowed) => {
    expect(allowsPlainHttp(issuer, isProduction)).toBe(allowed);
  });
});

describe('OidcClient against a loopback issuer', () => {
  let issuer: TestIssuer;
  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(() => issuer.close());

  const clientOf = (isProduction: boolean) =>
    new OidcClient({
      issuer: issuer.issuer,
      clientId: 'baton-test-client',
      clientSecret: 'baton-test-secret',
      companyDomain: 'example.com',
      isProduction,
    });

  test('outside production it discovers the http issuer and builds the authorization URL', async () => {
    const secrets = newFlowSecrets();
    const url = new URL(
      await clientOf(false).authorizationUrl({ ...secrets, redirectUri: 'http://baton.test/cb' }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${issuer.issuer}/authorize`);
    expect(url.searchParams.get('state')).toBe(secrets.state);
    expect(url.searchParams.get('nonce')).toBe(secrets.nonce);
    expect(url.searchParams.get('code_challenge')).not.toBe(secrets.verifier);
  });

  test('in production the same http issuer is refused as a misconfiguration', async () => {
    const attempt = clientOf(true).authorizationUrl({
      ...newFlowSecrets(),
      redirectUri: 'https://baton.example.com/cb',
    });
    await expect(attempt).rejects.toBeInstanceOf(ProviderError);
    await expect(attempt).rejects.toMatchObject({ kind: 'error' });
  });

  test('the code exchange judges ID token times by the clock it is given', async () => {
    const client = clientOf(false);
    const redirectUri = 'http://baton.test/cb';
    const claims = { sub: 's-1', email: 'a@example.com', email_verified: true };
    // Signed by the issuer two hours ago, valid for one hour.
    const then = new Date(Date.now() - 2 * 3600_000);
    const iat = Math.floor(then.getTime() / 1000);
    const exchange = async (now: Date) => {
      const secrets = newFlowSecrets();
      const location = await client.authorizationUrl({ ...secrets, redirectUri });
      const answer = issuer.authorize(location, { ...claims, iat, exp: iat + 3600 });
      return client.exchangeCode({
        code: answer.get('code') ?? '',
        redirectUri,
        verifier: secrets.verifier,
        nonce: secrets.nonce,
        now,
      });
    };
    // Expired for a client whose clock reads now...
    await expect(exchange(new Date())).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'The sign-in token has expired. Please sign in again.',
    });
    // ...and valid for one whose clock reads the time it was issued.
    expect((await exchange(then)).idToken.split('.')).toHaveLength(3);
  });
});
