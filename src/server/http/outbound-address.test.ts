import type { LookupAddress } from 'node:dns';
import { describe, expect, test } from 'vitest';
import { parseAllowedRanges } from '../core/address-ranges';
import {
  guardedLookup,
  type HostLookup,
  OutboundRefusal,
  type OutboundRule,
  outboundRule,
  refusedRange,
  resolveOutbound,
} from './outbound-address';

/** The address rule (decision 234): what a user-supplied URL may reach, in each mode. */

const production: OutboundRule = outboundRule({ isProduction: true, allowedCidrs: [] });
const development: OutboundRule = outboundRule({ isProduction: false, allowedCidrs: [] });
const allowing: OutboundRule = outboundRule({
  isProduction: true,
  allowedCidrs: ['10.20.0.0/16', 'fd12:3456::/48', '::ffff:192.168.7.0/120', '127.0.0.1/32'],
});

describe('refusedRange', () => {
  test.each([
    // address, production, development, production with DESTINATION_ALLOWED_CIDRS
    ['93.184.215.14', null, null, null],
    ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', null, null, null],
    ['127.0.0.1', 'loopback', null, null],
    ['127.8.9.10', 'loopback', null, 'loopback'],
    ['::1', 'loopback', null, 'loopback'],
    ['10.0.0.5', 'private', 'private', 'private'],
    ['10.20.3.4', 'private', 'private', null],
    ['172.16.0.1', 'private', 'private', 'private'],
    ['172.31.255.255', 'private', 'private', 'private'],
    ['172.32.0.1', null, null, null],
    ['192.168.1.1', 'private', 'private', 'private'],
    ['192.168.7.9', 'private', 'private', null],
    ['169.254.1.1', 'link-local', 'link-local', 'link-local'],
    ['169.254.169.254', 'cloud metadata', 'cloud metadata', 'cloud metadata'],
    ['169.254.170.2', 'cloud metadata', 'cloud metadata', 'cloud metadata'],
    ['168.63.129.16', 'cloud metadata', 'cloud metadata', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata', 'cloud metadata', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata', 'cloud metadata', 'cloud metadata'],
    ['100.64.0.1', 'shared (CGNAT)', 'shared (CGNAT)', 'shared (CGNAT)'],
    ['0.0.0.0', 'unspecified', 'unspecified', 'unspecified'],
    ['::', 'unspecified', 'unspecified', 'unspecified'],
    ['255.255.255.255', 'broadcast', 'broadcast', 'broadcast'],
    ['224.0.0.251', 'multicast', 'multicast', 'multicast'],
    ['ff02::1', 'multicast', 'multicast', 'multicast'],
    ['fe80::1', 'link-local', 'link-local', 'link-local'],
    ['fc00::1', 'unique-local', 'unique-local', 'unique-local'],
    ['fd12:3456::9', 'unique-local', 'unique-local', null],
    ['192.0.2.1', 'reserved', 'reserved', 'reserved'],
    ['240.0.0.1', 'reserved', 'reserved', 'reserved'],
    ['2001:db8::1', 'reserved', 'reserved', 'reserved'],
    // IPv4 in IPv6 clothing is the IPv4 address it carries.
    ['::ffff:10.0.0.5', 'private', 'private', 'private'],
    ['::ffff:127.0.0.1', 'loopback', null, null],
    ['::ffff:169.254.169.254', 'cloud metadata', 'cloud metadata', 'cloud metadata'],
    ['::ffff:192.168.7.1', 'private', 'private', null],
    ['::ffff:93.184.215.14', null, null, null],
    // NAT64, 6to4 and Teredo can lead to any IPv4 address: refused.
    ['64:ff9b::a00:5', 'reserved', 'reserved', 'reserved'],
    ['2002:a00:5::1', 'reserved', 'reserved', 'reserved'],
    ['not an address', 'invalid', 'invalid', 'invalid'],
    ['127.1', 'invalid', 'invalid', 'invalid'],
  ])('%s: production %s, development %s, allowed ranges %s', (address, prod, dev, allowed) => {
    expect(refusedRange(address, production)).toBe(prod);
    expect(refusedRange(address, development)).toBe(dev);
    expect(refusedRange(address, allowing)).toBe(allowed);
  });
});

describe('parseAllowedRanges', () => {
  test('comma-separated CIDRs, spaces and empty entries ignored', () => {
    expect(parseAllowedRanges(undefined)).toEqual([]);
    expect(
      parseAllowedRanges(' 10.20.0.0/16, ,fd12::/48 ').map(([n, bits]) => `${n}/${bits}`),
    ).toEqual(['10.20.0.0/16', 'fd12::/48']);
    expect(parseAllowedRanges('::ffff:10.0.0.0/104').map(([n, bits]) => `${n}/${bits}`)).toEqual([
      '10.0.0.0/8',
    ]);
  });

  test.each([
    '10.0.0.0',
    '10.0.0.0/33',
    'corp.internal/8',
    '0.0.0.0/0',
    '::/0',
    '10.0.0.0/8;192.168.0.0/16',
  ])('%s is refused, naming the entry', (text) => {
    expect(() => parseAllowedRanges(text)).toThrow(/must be comma-separated CIDR ranges/);
  });
});

/** A made-up resolver: no packet leaves the machine. */
function fakeLookup(names: Record<string, string[]>): HostLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    const addresses = names[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: 'ENOTFOUND',
      });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { asked });
}

describe('resolveOutbound', () => {
  const lookup = fakeLookup({
    'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'internal.example.com': ['10.0.0.5'],
    'metadata.example.com': ['169.254.169.254'],
    'split.example.com': ['93.184.215.14', '10.0.0.5'],
    localhost: ['127.0.0.1', '::1'],
  });

  test('a public name answers its addresses; a literal is not looked up', async () => {
    expect((await resolveOutbound('hooks.example.com', production, lookup)).length).toBe(2);
    expect(
      await resolveOutbound('[2606:2800:21f:cb07:6820:80da:af6b:8b2c]', production, lookup),
    ).toEqual([{ address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }]);
    expect(lookup.asked).not.toContain('2606:2800:21f:cb07:6820:80da:af6b:8b2c');
  });

  test.each([
    ['internal.example.com', 'private'],
    ['metadata.example.com', 'cloud metadata'],
    ['split.example.com', 'private'],
    ['localhost', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::ffff:10.0.0.5]', 'private'],
    ['0.0.0.0', 'unspecified'],
  ])('%s is refused in production as %s', async (host, range) => {
    const refusal = await resolveOutbound(host, production, lookup).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(OutboundRefusal);
    expect((refusal as OutboundRefusal).range).toBe(range);
  });

  test('loopback names pass outside production; a name not found fails with ENOTFOUND', async () => {
    expect(await resolveOutbound('localhost', development, lookup)).toHaveLength(2);
    await expect(resolveOutbound('nowhere.example.com', production, lookup)).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });
});

describe('guardedLookup', () => {
  const lookup = fakeLookup({
    'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'internal.example.com': ['10.0.0.5'],
  });
  const ask = (host: string, options: Parameters<ReturnType<typeof guardedLookup>>[1]) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>(
      (resolve) =>
        guardedLookup(production, lookup)(host, options, (err, address, family) =>
          resolve({ err, address, family }),
        ),
    );

  test('answers as net.connect asks: one address, all, or one family', async () => {
    expect(await ask('hooks.example.com', {})).toMatchObject({
      err: null,
      address: '93.184.215.14',
      family: 4,
    });
    expect((await ask('hooks.example.com', { all: true })).address).toHaveLength(2);
    expect(await ask('hooks.example.com', { family: 6 })).toMatchObject({
      address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      family: 6,
    });
  });

  test('a refused address is an error: the socket never gets an address to connect to', async () => {
    const answer = await ask('internal.example.com', { all: true });
    expect(answer.err).toBeInstanceOf(OutboundRefusal);
    expect(answer.address).toBe('');
  });
});
