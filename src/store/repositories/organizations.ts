import type { Kysely, Selectable } from 'kysely';
import type { Database, OrganizationsTable, WorkspacesTable } from '../schema.js';

export type Organization = Selectable<OrganizationsTable>;
export type Workspace = Selectable<WorkspacesTable>;

export function findDefaultOrganization(db: Kysely<Database>): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('is_default', '=', 1).executeTakeFirst();
}

export function findOrganization(db: Kysely<Database>, id: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDefaultWorkspace(db: Kysely<Database>, organizationId: string): Promise<Workspace | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
}

/** A workspace of this organization; another organization's is as absent as a missing one. */
export function findWorkspace(db: Kysely<Database>, organizationId: string, workspaceId: string): Promise<Workspace | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', workspaceId)
    .executeTakeFirst();
}
