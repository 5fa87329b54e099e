import { once } from 'node:events';
import { CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen } from 'cockatiel';
import { Redis, ReplyError } from 'ioredis';
import type { OutageLog } from '../util/outage-log.js';

export interface SharedRedisOptions {
  /** How long a command may wait for its answer; past it, it fails and its caller falls back to this instance's state. */
  commandTimeoutMs: number;
  /** Told when Redis fails and when it answers again. */
  outage: OutageLog;
}

/** After this many failed commands in a row, commands fail at once for a while; one a second tests whether Redis is back. */
const FAILURES_TO_OPEN = 3;
const HALF_OPEN_AFTER_MS = 1_000;
/** Reconnection attempts, spaced up to this far apart, go on until Redis is back. */
const MAX_RECONNECT_DELAY_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;

/**
 * Redis as the gateway's shared state uses it (pins, rate limits, change
 * notices, turn quotas, spend holds): every use has a fallback in this
 * instance, so a command never waits for Redis longer than a few tens of
 * milliseconds. Commands are not queued while disconnected (they fail at
 * once), one that takes longer than the command timeout fails, and `run`
 * goes through a circuit breaker: after a few failures in a row, calls fail
 * without touching Redis until a test call succeeds. The outage is logged
 * once, when it starts, and once when it ends.
 */
export class SharedRedis {
  /** The connection, for callers with their own fallback (spend holds); prefer `run`. */
  readonly client: Redis;
  private readonly breaker = circuitBreaker(
    // A command Redis refused (a wrong type, a script error) is an answer: Redis is there.
    handleWhen((error) => !(error instanceof ReplyError)),
    { halfOpenAfter: HALF_OPEN_AFTER_MS, breaker: new ConsecutiveBreaker(FAILURES_TO_OPEN) },
  );

  constructor(
    private readonly url: string,
    private readonly options: SharedRedisOptions,
  ) {
    this.client = new Redis(url, {
      commandTimeout: options.commandTimeoutMs,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (times) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
    });
    const { outage } = options;
    this.client.on('error', (error) => outage.down(error));
    this.client.on('ready', () => {
      if (this.breaker.state === CircuitState.Closed) outage.up();
    });
    this.breaker.onBreak((reason) => {
      outage.down('error' in reason ? reason.error : reason);
      // A connection that stopped answering (a network cut) is dropped: until a new one is ready every command, those
      // of callers that do not go through run() too, fails at once instead of after the command timeout.
      if (this.client.status === 'ready') this.client.disconnect(true);
    });
    this.breaker.onReset(() => {
      if (this.client.status === 'ready') outage.up();
    });
    this.breaker.onSuccess(() => outage.up());
  }

  /** A failure of a caller that uses the connection directly (spend holds): counted in the outage, logged only if it starts one. */
  noteFailure(error: unknown): void {
    if (!(error instanceof ReplyError)) this.options.outage.down(error);
  }

  /** Runs `call` unless the breaker is open; rejects (BrokenCircuitError) at once when it is. */
  run<T>(call: (redis: Redis) => Promise<T>): Promise<T> {
    return this.breaker.execute(() => call(this.client));
  }

  /** Redis answers: the connection is ready and the breaker closed. */
  get available(): boolean {
    return this.client.status === 'ready' && this.breaker.state === CircuitState.Closed;
  }

  /** Waits up to `timeoutMs` for the connection; false when it is not there by then (the gateway starts on its fallbacks). */
  async ready(timeoutMs: number): Promise<boolean> {
    if (this.client.status === 'ready') return true;
    return once(this.client, 'ready', { signal: AbortSignal.timeout(timeoutMs) }).then(
      () => true,
      () => false,
    );
  }

  /**
   * A second connection, for pub/sub (a subscribed connection can do nothing
   * else). It queues its subscriptions while Redis is away and subscribes
   * again when it is back: subscribing is no request that waits.
   */
  subscriber(): Redis {
    const subscriber = new Redis(this.url, {
      maxRetriesPerRequest: null,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (times) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
    });
    subscriber.on('error', (error) => this.options.outage.down(error));
    return subscriber;
  }

  close(): void {
    this.client.disconnect();
  }
}
