import { promises as dns } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to; injected so tests can make a name resolve anywhere. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** A connection refused because of where it would go. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'EBLOCKEDADDRESS';
}

/**
 * A `lookup` for sockets that resolves the name once and hands the checked
 * addresses straight to the connect, so the address judged is the address
 * reached (no second resolution for a rebinding DNS server to answer
 * differently). One refused address refuses the name: a mixed answer is how
 * such tricks are played.
 */
export function guardedLookup(resolve: Resolve, policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        for (const { address } of addresses) {
          const refused = policy(address);
          if (refused) return callback(new BlockedAddressError(`${hostname} resolves to a blocked address: ${refused}`), '', 0);
        }
        const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
        const first = usable[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND' }), '', 0);
        // With `all` (happy eyeballs) Node expects the list; otherwise one address.
        if (options.all) return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
