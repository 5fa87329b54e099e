import type { Kysely, Selectable } from 'kysely';
import type { AppsTable, Database } from '../schema.js';

export type App = Selectable<AppsTable>;

/** The app of an origin in an organization, registered on first sight. */
export async function findOrCreateApp(
  db: Kysely<Database>,
  organizationId: string,
  origin: string,
  name: string,
  now: string,
): Promise<App> {
  await db
    .insertInto('apps')
    .values({ organization_id: organizationId, origin, name, created_at: now })
    .onConflict((oc) => oc.columns(['organization_id', 'origin']).doNothing())
    .execute();
  return db
    .selectFrom('apps')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('origin', '=', origin)
    .executeTakeFirstOrThrow();
}
