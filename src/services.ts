import type { Kysely } from 'kysely';
import type { KeyCache } from './accounts/key-cache.js';
import type { Catalog } from './catalog/types.js';
import type { Authenticator } from './http/authenticate.js';
import type { ChangeFeed } from './store/change-feed.js';
import type { Database } from './store/schema.js';
import type { Clock } from './util/clock.js';

/** What route handlers depend on; built once in app.ts and passed in. */
export interface Services {
  db: Kysely<Database>;
  clock: Clock;
  auth: Authenticator;
  keys: KeyCache;
  changes: ChangeFeed;
  catalog: Catalog;
}

export const API_KEY_TOPIC = 'api_key';

/** Drops a changed key from every instance's cache. */
export function announceKeyChange(services: Pick<Services, 'changes'>, hash: string): Promise<void> {
  return services.changes.publish(API_KEY_TOPIC, hash);
}
