import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { SharedRedis } from './shared-redis.js';

/**
 * Tells every instance that a record changed, so in-memory caches drop it.
 * The local feed serves one process; the PostgreSQL (LISTEN/NOTIFY) and Redis
 * (pub/sub) feeds reach every instance that shares them.
 */
export interface ChangeFeed {
  publish(topic: string, id: string): Promise<void>;
  subscribe(topic: string, handler: (id: string) => void): void;
  close(): Promise<void>;
}

export function localChangeFeed(): ChangeFeed {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    async publish(topic, id) {
      events.emit(topic, id);
    },
    subscribe(topic, handler) {
      events.on(topic, handler);
    },
    async close() {
      events.removeAllListeners();
    },
  };
}

const CHANNEL = 'model_gateway_changes';

interface Notice {
  topic: string;
  id: string;
}

/**
 * A feed whose notices also travel through a shared channel. Publishing
 * delivers locally at once, so this instance never waits for the round trip;
 * our own notices come back from the channel too, which is harmless because
 * handlers are idempotent (they drop a cache entry). A channel that cannot
 * carry a notice (its service is away) fails no one: the change is made,
 * this instance knows it, and the other instances' caches pick it up when
 * the entry's TTL lapses.
 */
function sharedChangeFeed(
  channel: {
    publish(payload: string): Promise<void>;
    close(): Promise<void>;
  },
  onError: (error: unknown) => void,
): ChangeFeed & { deliver(payload: string): void } {
  const local = localChangeFeed();
  const remote = new EventEmitter();
  remote.setMaxListeners(0);
  return {
    deliver(payload) {
      try {
        const notice = JSON.parse(payload) as Notice;
        remote.emit(notice.topic, notice.id);
      } catch {
        // A payload that is not ours is not ours to act on.
      }
    },
    async publish(topic, id) {
      await local.publish(topic, id);
      await channel.publish(JSON.stringify({ topic, id })).catch(onError);
    },
    subscribe(topic, handler) {
      local.subscribe(topic, handler);
      remote.on(topic, handler);
    },
    async close() {
      remote.removeAllListeners();
      await local.close();
      await channel.close();
    },
  };
}

/** How long the LISTEN connection waits before connecting again after it was lost, at most, and how long a connection may take. */
const MAX_RECONNECT_DELAY_MS = 5_000;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Notices through PostgreSQL LISTEN/NOTIFY; resolves once LISTEN is in place.
 * The listening connection has its error handled (an unheard 'error' would
 * end the process) and is made again, with a growing delay, until the server
 * is back; changes made meanwhile are missed, and cache TTLs bound how long a
 * stale entry lives. `onError` hears every failure (an outage log).
 */
export async function postgresChangeFeed(connectionString: string, onError: (error: unknown) => void): Promise<ChangeFeed> {
  let closed = false;
  let client: pg.Client | undefined;
  const feed = sharedChangeFeed(
    {
      async publish(payload) {
        if (client) await client.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
      },
      async close() {
        closed = true;
        await client?.end();
      },
    },
    onError,
  );
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    c.on('notification', (msg) => {
      if (msg.channel === CHANNEL && msg.payload) feed.deliver(msg.payload);
    });
    c.on('error', (error) => {
      onError(error);
      if (client !== c) return;
      client = undefined;
      void c.end().catch(() => undefined);
      if (!closed) void reconnect();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await c.end().catch(() => undefined);
      throw error;
    }
    if (closed) await c.end();
    else client = c;
  };
  const reconnect = async (): Promise<void> => {
    for (let attempt = 1; !closed; attempt++) {
      await sleep(Math.min(attempt * 500, MAX_RECONNECT_DELAY_MS), undefined, { ref: false });
      if (closed) return;
      try {
        return await connect();
      } catch (error) {
        onError(error);
      }
    }
  };
  await connect();
  return feed;
}

/** Notices through Redis pub/sub: published on the shared connection (failing fast), heard on a subscriber connection of their own. */
export async function redisChangeFeed(
  redis: SharedRedis,
  subscriber: Redis,
  onError: (error: unknown) => void,
  subscribeTimeoutMs: number,
): Promise<ChangeFeed> {
  const feed = sharedChangeFeed(
    {
      async publish(payload) {
        await redis.run((client) => client.publish(CHANNEL, payload));
      },
      async close() {
        subscriber.disconnect();
      },
    },
    onError,
  );
  subscriber.on('message', (channel: string, payload: string) => {
    if (channel === CHANNEL) feed.deliver(payload);
  });
  // Subscribed when Redis answers (at once when it is up); a start does not wait longer for a Redis that is away.
  const subscribed = subscriber.subscribe(CHANNEL).then(
    () => undefined,
    (error: unknown) => onError(error),
  );
  await Promise.race([subscribed, sleep(subscribeTimeoutMs, undefined, { ref: false })]);
  return feed;
}
