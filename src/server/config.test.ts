import { describe, expect, test } from 'vitest';
import { ConfigError, isDemoMode, loadConfig } from './config';

const key = Buffer.alloc(32, 1).toString('base64');

describe('loadConfig', () => {
  test('has working defaults outside production', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      companyDomain: 'example.com',
      nodeEnv: 'development',
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(isDemoMode(config)).toBe(true);
  });

  test.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ENCRYPTION_KEY: 'c2hvcnQ=' }, 'ENCRYPTION_KEY'],
    [{ ADMIN_EMAIL: 'not-an-email' }, 'ADMIN_EMAIL'],
    [{ COMPANY_DOMAIN: 'no spaces.com' }, 'COMPANY_DOMAIN'],
    [{ LOCAL_LOGIN_PASSWORD: 'short' }, 'LOCAL_LOGIN_PASSWORD'],
    [{ DEMO: 'maybe' }, 'DEMO'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ NODE_ENV: 'production', COMPANY_DOMAIN: 'acme.com' }, 'ENCRYPTION_KEY'],
    [{ NODE_ENV: 'production', ENCRYPTION_KEY: key }, 'COMPANY_DOMAIN'],
    [{ BATON_TEST_CLOCK_FILE: '/tmp/clock' }, 'BATON_TEST_CLOCK_FILE'],
    [{ READ_CACHE_MB: '-1' }, 'READ_CACHE_MB'],
    [{ READ_CACHE_MB: 'lots' }, 'READ_CACHE_MB'],
    [
      {
        NODE_ENV: 'production',
        ENCRYPTION_KEY: key,
        COMPANY_DOMAIN: 'acme.com',
        BATON_TEST_CLOCK_FILE: '/tmp/clock',
      },
      'BATON_TEST_CLOCK_FILE',
    ],
  ])('a bad value stops start-up naming the variable: %o', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${variable}:`));
  });

  test('READ_CACHE_MB sets the read cache in bytes: 16 MB by default, 0 turns it off', () => {
    expect(loadConfig({}).readCacheBytes).toBe(16 * 1024 * 1024);
    expect(loadConfig({ READ_CACHE_MB: '0.5' }).readCacheBytes).toBe(512 * 1024);
    expect(loadConfig({ READ_CACHE_MB: '0' }).readCacheBytes).toBe(0);
  });

  test('production with a key and a domain, and no identity provider, is not demo mode', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ENCRYPTION_KEY: key,
      COMPANY_DOMAIN: 'Acme.com',
    });
    expect(config.companyDomain).toBe('acme.com');
    expect(isDemoMode(config)).toBe(false);
  });

  test('DEBUG_DETAILS: the diagnostics show host, data path and version outside production, in production only when set', () => {
    const production = { NODE_ENV: 'production', ENCRYPTION_KEY: key, COMPANY_DOMAIN: 'acme.com' };
    expect(loadConfig({}).debugDetails).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).debugDetails).toBe(true);
    expect(loadConfig(production).debugDetails).toBe(false);
    expect(loadConfig({ ...production, DEBUG_DETAILS: '0' }).debugDetails).toBe(false);
    expect(loadConfig({ ...production, DEBUG_DETAILS: '1' }).debugDetails).toBe(true);
    expect(loadConfig({ ...production, DEBUG_DETAILS: 'true' }).debugDetails).toBe(true);
    expect(() => loadConfig({ DEBUG_DETAILS: 'yes' })).toThrow(/DEBUG_DETAILS:/);
  });

  test('an identity provider turns demo mode off', () => {
    expect(isDemoMode(loadConfig({ OIDC_CLIENT_ID: 'baton' }))).toBe(false);
  });
});
