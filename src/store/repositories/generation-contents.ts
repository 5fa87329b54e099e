import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, GenerationContentsTable, GenerationFeedbackTable } from '../schema.js';

export type GenerationContentRow = Selectable<GenerationContentsTable>;

/** The stored content of a generation of this organization, if its content was stored. */
export function findGenerationContent(
  db: Kysely<Database>,
  organizationId: string,
  generationId: string,
): Promise<GenerationContentRow | undefined> {
  return db
    .selectFrom('generation_contents')
    .selectAll()
    .where('generation_id', '=', generationId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** Keeps one feedback on a generation (each is kept, none replaces another). */
export async function insertGenerationFeedback(db: Kysely<Database>, feedback: Insertable<GenerationFeedbackTable>): Promise<void> {
  await db.insertInto('generation_feedback').values(feedback).execute();
}
