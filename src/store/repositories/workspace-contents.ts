import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';

/** What a deleted workspace's rows leave for the caller to do once they are gone: caches to tell, bytes to remove. */
export interface RemovedContents {
  /** Slugs of its deleted presets (each instance caches presets by workspace and slug). */
  presetSlugs: string[];
  /** Its deleted files: their bytes are still in the file storage. */
  fileIds: string[];
  /** Its deleted containers: their work directories are still on disk. */
  containerIds: string[];
  byokCredentials: number;
  destinations: number;
}

/** How many interns a workspace holds: an intern is a running agent with its own state, never removed as a side effect. */
export async function countWorkspaceInterns(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('interns')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Removes what a workspace held, inside the transaction that deletes it. Presets, vault secrets, files and
 * containers are deleted; BYOK credentials are marked deleted with their sealed material wiped, as one
 * deleted through the API; destinations are disabled and marked deleted, their undelivered events dropped
 * (the reference "disables its broadcast destinations"). Bytes outside the database (files, container
 * directories) are the caller's to remove after the commit: from then on no request can find them.
 */
export async function removeWorkspaceContents(tx: Transaction<Database>, workspaceId: string, now: string): Promise<RemovedContents> {
  const presets = tx.selectFrom('presets').select('id').where('workspace_id', '=', workspaceId);
  await tx.deleteFrom('preset_versions').where('preset_id', 'in', presets).execute();
  const presetSlugs = await tx.deleteFrom('presets').where('workspace_id', '=', workspaceId).returning('slug').execute();
  await tx.deleteFrom('vault_secrets').where('workspace_id', '=', workspaceId).execute();
  const byok = await tx
    .updateTable('byok_credentials')
    .set({ deleted_at: now, updated_at: now, sealed_key: null, wrapped_data_key: null, master_key_id: null, disabled: 1 })
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const destinations = await tx
    .updateTable('observability_destinations')
    .set({ deleted_at: now, enabled: 0, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute();
  if (destinations.length > 0)
    await tx
      .deleteFrom('destination_events')
      .where(
        'destination_id',
        'in',
        destinations.map((row) => row.id),
      )
      .execute();
  const files = await tx.deleteFrom('files').where('workspace_id', '=', workspaceId).returning('id').execute();
  await tx.deleteFrom('container_files').where('workspace_id', '=', workspaceId).execute();
  const containers = await tx.deleteFrom('containers').where('workspace_id', '=', workspaceId).returning('id').execute();
  return {
    presetSlugs: presetSlugs.map((row) => row.slug),
    fileIds: files.map((row) => row.id),
    containerIds: containers.map((row) => row.id),
    byokCredentials: Number(byok.numUpdatedRows),
    destinations: destinations.length,
  };
}
