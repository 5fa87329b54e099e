import type { Kysely, Selectable } from 'kysely';
import type { Database, GenerationsTable } from '../schema.js';

export type GenerationRow = Selectable<GenerationsTable>;

/** A generation of this organization; another organization's is as absent as a missing one. */
export function findGeneration(db: Kysely<Database>, organizationId: string, id: string): Promise<GenerationRow | undefined> {
  return db
    .selectFrom('generations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}
