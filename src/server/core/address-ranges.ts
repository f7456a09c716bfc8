import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * The settings half of the address rule (decision 234), which config.ts reads at start-up and
 * AppDeps carries: the administrator's allowed ranges and how a name is resolved. The rule itself
 * (what a user-supplied URL may reach, checked at the connection) is `http/outbound-address.ts`.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
/** a network and its prefix length, as `ipaddr.parseCIDR` answers */
export type AddressRange = [Address, number];

/** How a name is resolved: every address, as `dns.promises.lookup(name, { all: true })` answers. */
export type HostLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

/** What DESTINATION_ALLOWED_CIDRS must be (the start-up message and the tests use it). */
export const ALLOWED_CIDRS_RULE =
  'must be comma-separated CIDR ranges such as 10.20.0.0/16 or fd12:3456::/48 (a range, not all addresses: /0 is refused)';

/**
 * parseAllowedRanges reads DESTINATION_ALLOWED_CIDRS (comma-separated CIDRs; v4-mapped IPv6 ranges
 * are taken as the IPv4 range they carry); it throws a RangeError naming the first bad entry.
 */
export function parseAllowedRanges(text: string | undefined): AddressRange[] {
  const entries = (text ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    let parsed: AddressRange;
    try {
      parsed = ipaddr.parseCIDR(entry);
    } catch {
      throw new RangeError(`"${entry}" ${ALLOWED_CIDRS_RULE}`);
    }
    const [network, bits] = parsed;
    if (bits === 0) throw new RangeError(`"${entry}" ${ALLOWED_CIDRS_RULE}`);
    if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(network as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return parsed;
  });
}
