import { BrokenCircuitError, ConsecutiveBreaker, circuitBreaker, handleWhen } from 'cockatiel';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';
import type { OutageLog } from '../util/outage-log.js';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './database-unavailable.js';

export interface PostgresPoolOptions {
  /** A connection not established by then fails (the server is not answering, or the path to it is cut). */
  connectTimeoutMs: number;
  /** A query not answered by then fails, and its connection is dropped (a cut that no socket error reports). */
  queryTimeoutMs: number;
  /** Told of each failure to reach the server, of each new connection and of each query answered during an outage. */
  outage?: OutageLog;
}

/** After this many connection failures in a row, connections fail at once for a while instead of each waiting to fail. */
const FAILURES_TO_OPEN = 3;
const HALF_OPEN_AFTER_MS = 1_000;

/**
 * The pg pool Kysely draws its connections from, made safe for a server that
 * goes away. Every client has an error listener from its first moment: pg
 * emits 'error' on a client whose connection dies, idle in the pool or in
 * use, and an unheard 'error' ends the process. A client whose connection
 * failed goes back to the pool marked broken, so that the pool drops it.
 * Connecting goes through a circuit breaker: once the server has failed
 * several times in a row, requests that need it fail at once (503) rather
 * than each waiting for a connection timeout, and one attempt a second tests
 * whether it is back.
 */
export function postgresPool(url: string, options: PostgresPoolOptions): PostgresPool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: options.connectTimeoutMs,
    query_timeout: options.queryTimeoutMs,
    keepAlive: true,
  });
  const noteFailure = (error: unknown) => options.outage?.down(error);
  pool.on('error', noteFailure);
  // A new connection proves the server is back; an idle one handed out of the pool does not (its socket may not
  // know of the cut yet), so ending the outage there made it flap: "unavailable" was logged twice for one outage.
  pool.on('connect', (client) => {
    client.on('error', noteFailure);
    options.outage?.up();
  });
  const breaker = circuitBreaker(handleWhen(isDatabaseUnavailable), {
    halfOpenAfter: HALF_OPEN_AFTER_MS,
    breaker: new ConsecutiveBreaker(FAILURES_TO_OPEN),
  });
  const guarded = new WeakMap<pg.PoolClient, GuardedClient>();
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await breaker.execute(() => pool.connect());
      } catch (error) {
        if (error instanceof BrokenCircuitError)
          throw new DatabaseUnavailableError('the database failed repeatedly; it is tried again shortly', { cause: error });
        if (isDatabaseUnavailable(error)) noteFailure(error);
        throw error;
      }
      let wrapper = guarded.get(client);
      if (!wrapper) guarded.set(client, (wrapper = new GuardedClient(client, options.outage)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/** A pooled client that remembers a failure of its connection until it is released, and then has the pool drop it. */
class GuardedClient implements PostgresPoolClient {
  private broken: Error | undefined;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly outage: OutageLog | undefined,
  ) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(text: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof text !== 'string') return this.client.query(text as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
    // Only a query sent during the outage and answered proves it over; one sent before may be answered after the cut.
    const sentDuringOutage = this.outage?.isDown === true;
    return (this.client.query(text, parameters as unknown[]) as unknown as Promise<PostgresQueryResult<R>>).then(
      (result) => {
        if (sentDuringOutage) this.outage?.up();
        return result;
      },
      (error: unknown) => {
        if (isDatabaseUnavailable(error) && error instanceof Error) this.broken = error;
        throw error;
      },
    );
  }

  release(): void {
    const broken = this.broken;
    this.broken = undefined;
    this.client.release(broken);
  }
}
