import type { Resolve } from './guarded-lookup.js';

/** A resolver whose answers the test writes: a name resolves to the listed addresses, or not at all. */
export const fixedResolver =
  (table: Record<string, string[]>): Resolve =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
