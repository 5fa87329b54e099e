import ipaddr from 'ipaddr.js';

/** Decides whether an outbound connection may reach an IP address; returns why not, or undefined. */
export type AddressPolicy = (address: string) => string | undefined;

/**
 * Only globally routable unicast addresses, unless an operator listed a range
 * (CIDR) as reachable on purpose. Everything ipaddr.js classifies otherwise is
 * refused: loopback, private, link-local (cloud metadata at 169.254.169.254),
 * unique-local, carrier-grade NAT, multicast, reserved, and the IPv6 forms that
 * embed an IPv4 address (6to4, Teredo, NAT64). IPv4-mapped IPv6 addresses are
 * judged as the IPv4 address they carry.
 */
export function publicAddressPolicy(allowedRanges: readonly string[] = []): AddressPolicy {
  const allowed = allowedRanges.map((cidr) => ipaddr.parseCIDR(cidr));
  return (address) => {
    if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
    const ip = ipaddr.process(address);
    if (allowed.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return undefined;
    const range = ip.range();
    return range === 'unicast' ? undefined : `${address} is a ${range} address`;
  };
}

/** Refuses a CIDR list entry that does not parse, naming it (for configuration checks). */
export function invalidRanges(ranges: readonly string[]): string[] {
  return ranges.filter((cidr) => {
    try {
      ipaddr.parseCIDR(cidr);
      return false;
    } catch {
      return true;
    }
  });
}
