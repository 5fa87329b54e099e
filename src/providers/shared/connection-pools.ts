import { Pool } from 'undici';

/**
 * One keep-alive pool per upstream origin, for adapters called without a
 * dispatcher. Upstream requests are long (seconds to minutes of streaming)
 * and each holds a connection for its whole life, so the limit is generous;
 * requests beyond it queue in the pool instead of opening sockets without
 * bound. Idle sockets are kept for 30 s (or less, if the server's Keep-Alive
 * header says so) to skip the TCP and TLS handshakes on the next request.
 */
const POOL_OPTIONS: Pool.Options = { connections: 256, keepAliveTimeout: 30_000 };

const pools = new Map<string, Pool>();

/** The shared pool for an origin such as "https://api.openai.com". */
export function poolFor(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool) {
    pool = new Pool(origin, POOL_OPTIONS);
    pools.set(origin, pool);
  }
  return pool;
}

/** Closes every pool (on shutdown): waits for requests in flight, then closes the sockets. */
export async function closeAllPools(): Promise<void> {
  const closing = [...pools.values()].map((pool) => pool.close());
  pools.clear();
  await Promise.all(closing);
}
