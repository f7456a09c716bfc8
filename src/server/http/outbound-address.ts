import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { type AddressRange, type HostLookup, parseAllowedRanges } from '../core/address-ranges';

/** HostLookup is core's (AppDeps carries one); the rule's callers name it from here. */
export type { HostLookup };

/**
 * The address rule for requests Baton makes to URLs its users type (decision 234): destinations
 * today, push endpoints and import sources next. Only public unicast addresses pass; loopback too
 * outside production (the tests' receivers, a developer's own); any other range only when the
 * administrator names it in DESTINATION_ALLOWED_CIDRS; a cloud provider's metadata service never.
 * The rule is applied to the addresses a name resolves to, inside the connection's own lookup, so
 * the address checked is the address connected to (a name that changes its answer between the
 * check at creation and the send is refused at the send, before any connection).
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** OutboundRule says which addresses a user-supplied URL may reach. */
export interface OutboundRule {
  /** loopback (127.0.0.0/8, ::1) passes: outside production only */
  allowLoopback: boolean;
  /** the administrator's DESTINATION_ALLOWED_CIDRS */
  allowedRanges: readonly AddressRange[];
}

/** systemLookup resolves a name as the operating system does (hosts file, then DNS). */
export const systemLookup: HostLookup = (hostname) =>
  dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Cloud providers' metadata services answer credentials to whoever asks from inside: refused
 * even inside an allowed range. Most sit in ranges refused anyway (link-local, CGNAT,
 * unique-local, reserved); Azure's wire server is a public address.
 */
const METADATA_ADDRESSES: readonly Address[] = [
  '169.254.169.254', // AWS, GCP, Azure IMDS, OpenStack, DigitalOcean
  '169.254.170.2', // AWS ECS task credentials
  '168.63.129.16', // Azure wire server
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
  'fd00:ec2::254', // AWS IMDS over IPv6
].map((a) => ipaddr.parse(a));

/** The ranges refused, as the refusal names them. */
export type RefusedRange =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'shared (CGNAT)'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'cloud metadata'
  | 'reserved'
  | 'invalid';

const RANGE_NAMES: Record<string, RefusedRange> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'unique-local',
  carrierGradeNat: 'shared (CGNAT)',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
};

/** a v4-mapped IPv6 address (::ffff:10.0.0.5) is the IPv4 address it carries */
function unmapped(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

function inRange(address: Address, [network, bits]: AddressRange): boolean {
  return address.kind() === network.kind() && address.match(network, bits);
}

/**
 * refusedRange returns the name of the range that keeps `address` (an IPv4 or IPv6 literal, without
 * brackets) from being reached under `rule`, or null when it may be reached.
 */
export function refusedRange(address: string, rule: OutboundRule): RefusedRange | null {
  if (!ipaddr.isValid(address) || isIP(address) === 0) return 'invalid';
  const ip = unmapped(ipaddr.parse(address));
  if (METADATA_ADDRESSES.some((m) => m.kind() === ip.kind() && m.toString() === ip.toString())) {
    return 'cloud metadata';
  }
  const range = ip.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && rule.allowLoopback) return null;
  if (rule.allowedRanges.some((allowed) => inRange(ip, allowed))) return null;
  return RANGE_NAMES[range] ?? 'reserved';
}

/** outboundRule is the rule of a deployment: production's, or development's with loopback. */
export function outboundRule(settings: {
  isProduction: boolean;
  allowedCidrs: readonly string[];
}): OutboundRule {
  return {
    allowLoopback: !settings.isProduction,
    allowedRanges: parseAllowedRanges(settings.allowedCidrs.join(',')),
  };
}

/** OutboundRefusal is a host refused by the rule, before any connection to it. */
export class OutboundRefusal extends Error {
  readonly code = 'OUTBOUND_ADDRESS_REFUSED';
  constructor(
    readonly hostname: string,
    readonly range: RefusedRange,
  ) {
    super(`${hostname} resolves to a ${range} address, which Baton does not connect to`);
    this.name = 'OutboundRefusal';
  }
}

/** bare strips the brackets a URL puts around an IPv6 host. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * resolveOutbound returns the addresses `hostname` (a name or an address literal) stands for, or
 * throws OutboundRefusal when any of them is refused (a name answering one public and one private
 * address is refused: the connection might take either). A failed lookup throws its own error.
 */
export async function resolveOutbound(
  hostname: string,
  rule: OutboundRule,
  lookup: HostLookup = systemLookup,
): Promise<LookupAddress[]> {
  const host = bareHost(hostname);
  const family = isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : [...(await lookup(host))];
  if (addresses.length === 0) {
    throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  }
  for (const { address } of addresses) {
    const range = refusedRange(address, rule);
    if (range) throw new OutboundRefusal(host, range);
  }
  return addresses;
}

/**
 * guardedLookup is a `lookup` for `net.connect` (an http.Agent's or a request's option): it
 * resolves the name and checks every address before the socket connects, so what was checked is
 * what is connected to. Address literals never reach a lookup: check them with resolveOutbound
 * first (sendOutbound does).
 */
export function guardedLookup(
  rule: OutboundRule,
  lookup: HostLookup = systemLookup,
): LookupFunction {
  return (hostname, options, callback) => {
    resolveOutbound(hostname, rule, lookup).then(
      (all) => {
        const family =
          options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family === 4 || family === 6 ? all.filter((a) => a.family === family) : all;
        if (wanted.length === 0) {
          callback(
            Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
            '',
          );
        } else if (options.all) {
          callback(null, wanted);
        } else {
          callback(null, wanted[0].address, wanted[0].family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
