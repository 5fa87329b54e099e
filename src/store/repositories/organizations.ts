import type { Kysely, Selectable } from 'kysely';
import type { Database, OrganizationsTable } from '../schema.js';

export type Organization = Selectable<OrganizationsTable>;

export function findDefaultOrganization(db: Kysely<Database>): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('is_default', '=', 1).executeTakeFirst();
}

export function findOrganization(db: Kysely<Database>, id: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}
