import type { Kysely, Selectable } from 'kysely';
import type { Database, OrganizationSettingsTable } from '../schema.js';

export type OrganizationSettingsRow = Selectable<OrganizationSettingsTable>;

export async function findOrganizationSettings(db: Kysely<Database>, organizationId: string): Promise<OrganizationSettingsRow | undefined> {
  return db.selectFrom('organization_settings').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
}

/** Creates the organization's row or replaces the settings given; an absent one keeps its stored value. */
export async function saveOrganizationSettings(
  db: Kysely<Database>,
  organizationId: string,
  documents: { provider?: string | null; plugins?: string | null; store_content?: number; byok_fallback?: number },
  now: string,
): Promise<OrganizationSettingsRow> {
  return db
    .insertInto('organization_settings')
    .values({
      organization_id: organizationId,
      provider: documents.provider ?? null,
      plugins: documents.plugins ?? null,
      store_content: documents.store_content ?? 0,
      byok_fallback: documents.byok_fallback ?? 1,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...documents, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
