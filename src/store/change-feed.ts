import { EventEmitter } from 'node:events';
import pg from 'pg';

/**
 * Tells every instance that a record changed, so in-memory caches drop it.
 * The local feed serves one process; the PostgreSQL feed rides LISTEN/NOTIFY
 * so that every instance sharing the database hears every change.
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
 * Resolves once LISTEN is in place. Our own notices come back too; handlers
 * are idempotent (they drop a cache entry), and publishing also delivers
 * locally at once so this instance never waits for the round trip.
 */
export async function postgresChangeFeed(
  connectionString: string,
  onError: (error: Error) => void,
): Promise<ChangeFeed> {
  const local = localChangeFeed();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let closed = false;
  let client: pg.Client | undefined;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString });
    c.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const notice = JSON.parse(msg.payload) as Notice;
        events.emit(notice.topic, notice.id);
      } catch {
        // A payload that is not ours is not ours to act on.
      }
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

  return {
    async publish(topic, id) {
      await local.publish(topic, id);
      if (client) await client.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ topic, id })]);
    },
    subscribe(topic, handler) {
      local.subscribe(topic, handler);
      events.on(topic, handler);
    },
    async close() {
      closed = true;
      events.removeAllListeners();
      await local.close();
      await client?.end();
    },
  };
}
