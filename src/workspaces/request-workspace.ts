import type { Kysely } from 'kysely';
import { Errors } from '../http/errors.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { findWorkspaceById } from '../store/repositories/workspaces.js';
import type { Database } from '../store/schema.js';
import { keyReach, workspaceInReach } from './management-reach.js';

/**
 * The workspace whose resources (files, vault secrets, presets) a request
 * reads or changes: the key's own unless `workspace_id` names another, which
 * only a management key reaching it (its organization's, or a scoped one's
 * own) may do. Any other is a 404, the same whether it exists or not.
 */
export async function requestWorkspace(db: Kysely<Database>, key: ApiKeyRow, requested: string | undefined): Promise<string> {
  if (requested === undefined || requested === key.workspace_id) return key.workspace_id;
  workspaceInReach(keyReach(key), requested);
  const workspace = await findWorkspaceById(db, requested);
  if (!workspace || workspace.organization_id !== key.organization_id || workspace.deleted_at !== null)
    throw Errors.notFound(`Workspace ${requested}`);
  return workspace.id;
}
