import type { Kysely } from 'kysely';
import { Errors } from '../../http/errors.js';
import { findFile } from '../../store/repositories/files.js';
import type { Database } from '../../store/schema.js';

/** A file a code_interpreter tool names for its new container, with the request's field that names it. */
export interface NamedFile {
  field: string;
  id: string;
}

/**
 * The files a code_interpreter tool names must be the key's workspace's, as
 * the files API has them: another workspace's is as absent as a missing one,
 * a 404 naming the field, before any upstream call.
 */
export async function checkContainerFiles(db: Kysely<Database>, workspaceId: string, named: readonly NamedFile[]): Promise<void> {
  for (const { field, id } of named) if (!(await findFile(db, workspaceId, id))) throw Errors.notFound(`${field}: file ${id}`);
}
