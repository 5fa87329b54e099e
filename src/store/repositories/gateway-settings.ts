import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * The stored value of a setting, created from `initial()` on first use. When
 * several instances race, the first insert wins and all read the same value.
 */
export async function settingOrCreate(db: Kysely<Database>, name: string, initial: () => string): Promise<string> {
  await db
    .insertInto('gateway_settings')
    .values({ name, value: initial() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('gateway_settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
