/**
 * How long the gateway waits for PostgreSQL and Redis unless told otherwise
 * (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS,
 * REDIS_COMMAND_TIMEOUT_MS), in a module of their own so that reading the
 * settings loads neither driver.
 */
export const POSTGRES_POOL_DEFAULTS = { connectTimeoutMs: 5_000, queryTimeoutMs: 30_000 } as const;

export const REDIS_DEFAULTS = { commandTimeoutMs: 50 } as const;
