import type { Store } from '../store/database.js';
import { connectSharedState } from './shared-state.js';

/**
 * Tells running servers that a record changed, through what they listen to
 * (Redis, or PostgreSQL NOTIFY). On SQLite no channel reaches them: their
 * caches pick the change up when the entry's TTL lapses.
 */
export async function announce(store: Store, redisUrl: string | undefined, topic: string, id: string): Promise<void> {
  const shared = await connectSharedState(store, redisUrl, { warn: () => undefined });
  try {
    await shared.changes.publish(topic, id);
  } finally {
    await shared.close();
  }
}
