import type { Kysely, Selectable } from 'kysely';
import type { AppsTable, Database } from '../schema.js';

export type App = Selectable<AppsTable>;

/**
 * The app of an origin in an organization, registered on first sight. A name
 * the app states itself (its title header) replaces the one on record; a
 * derived one (the host name) never does.
 */
export async function findOrCreateApp(
  db: Kysely<Database>,
  organizationId: string,
  origin: string,
  name: { value: string; stated: boolean },
  now: string,
): Promise<App> {
  await db
    .insertInto('apps')
    .values({ organization_id: organizationId, origin, name: name.value, created_at: now })
    .onConflict((oc) => {
      const target = oc.columns(['organization_id', 'origin']);
      return name.stated ? target.doUpdateSet({ name: name.value }) : target.doNothing();
    })
    .execute();
  return db
    .selectFrom('apps')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('origin', '=', origin)
    .executeTakeFirstOrThrow();
}
