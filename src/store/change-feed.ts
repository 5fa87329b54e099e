import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import pg from 'pg';

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
 * handlers are idempotent (they drop a cache entry).
 */
function sharedChangeFeed(channel: {
  publish(payload: string): Promise<void>;
  close(): Promise<void>;
}): ChangeFeed & { deliver(payload: string): void } {
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
      await channel.publish(JSON.stringify({ topic, id }));
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

/** Notices through PostgreSQL LISTEN/NOTIFY; resolves once LISTEN is in place. */
export async function postgresChangeFeed(connectionString: string, onError: (error: Error) => void): Promise<ChangeFeed> {
  let closed = false;
  let client: pg.Client | undefined;
  const feed = sharedChangeFeed({
    async publish(payload) {
      if (client) await client.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
    },
    async close() {
      closed = true;
      await client?.end();
    },
  });
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString });
    c.on('notification', (msg) => {
      if (msg.channel === CHANNEL && msg.payload) feed.deliver(msg.payload);
    });
    c.on('error', (error) => {
      onError(error);
      if (closed) return;
      // Changes made while disconnected are missed: cache TTLs bound how long a stale entry lives.
      setTimeout(() => void connect().catch(onError), 1000).unref();
    });
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
    client = c;
  };
  await connect();
  return feed;
}

/** Notices through Redis pub/sub (a subscribed connection cannot publish, hence two). */
export async function redisChangeFeed(publisher: Redis, subscriber: Redis): Promise<ChangeFeed> {
  const feed = sharedChangeFeed({
    async publish(payload) {
      await publisher.publish(CHANNEL, payload);
    },
    async close() {
      subscriber.disconnect();
    },
  });
  subscriber.on('message', (channel: string, payload: string) => {
    if (channel === CHANNEL) feed.deliver(payload);
  });
  await subscriber.subscribe(CHANNEL);
  return feed;
}
