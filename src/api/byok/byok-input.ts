import type { Kysely, Updateable } from 'kysely';
import type { Static } from 'typebox';
import { type Envelope, keyLabel } from '../../byok/envelope.js';
import { knownProviderSlugs } from '../../byok/known-providers.js';
import type { Catalog } from '../../catalog/types.js';
import { Errors } from '../../http/errors.js';
import type { Reach } from '../../store/reach.js';
import { findDefaultWorkspace, findWorkspace } from '../../store/repositories/workspaces.js';
import type { ByokCredentialsTable, Database } from '../../store/schema.js';
import type { CreateByokBody, UpdateByokBody } from './schemas.js';

/** The provider named, when the gateway knows it; else a 400 listing those it does. */
export function knownProvider(catalog: Pick<Catalog, 'providers'>, provider: string): string {
  if (catalog.providers.has(provider)) return provider;
  throw Errors.invalidRequest(
    `provider ${provider} is not a provider this gateway knows: one of ${knownProviderSlugs(catalog).join(', ')}`,
  );
}

/**
 * The workspace a credential is for: the one named (404 when it is not in
 * reach: another organization's, or another workspace than a scoped key's),
 * null for the organization's own (organization reach only), else the
 * caller's (a scoped key's workspace, or the default).
 */
export async function credentialWorkspace(
  db: Kysely<Database>,
  reach: Reach,
  requested: string | null | undefined,
): Promise<string | null> {
  if (requested === null) {
    if (reach.workspaceId !== null) throw Errors.organizationKeyRequired('add organization-wide provider credentials (workspace_id null)');
    return null;
  }
  if (requested === undefined) {
    if (reach.workspaceId !== null) return reach.workspaceId;
    const fallback = await findDefaultWorkspace(db, reach.organizationId);
    if (!fallback || fallback.deleted_at !== null)
      throw Errors.invalidRequest('workspace_id is required: the default workspace is deleted');
    return fallback.id;
  }
  const workspace = await findWorkspace(db, reach.organizationId, requested);
  if (!workspace || (reach.workspaceId !== null && workspace.id !== reach.workspaceId))
    throw Errors.notFound(`workspace_id ${requested}: workspace`);
  return workspace.id;
}

/** Refuses a hash in allowed_api_key_hashes that is not of a key of this organization, naming it. */
export async function checkKeyHashes(
  db: Kysely<Database>,
  organizationId: string,
  hashes: readonly string[] | null | undefined,
): Promise<void> {
  if (!hashes) return;
  const found = await db
    .selectFrom('api_keys')
    .select('hash')
    .where('organization_id', '=', organizationId)
    .where('hash', 'in', [...hashes])
    .execute();
  const known = new Set(found.map((r) => r.hash));
  const stranger = hashes.find((h) => !known.has(h));
  if (stranger !== undefined)
    throw Errors.invalidRequest(`allowed_api_key_hashes: ${stranger} is not the hash of a key of this organization`);
}

const json = (list: readonly string[] | null | undefined) => (list === undefined ? undefined : list === null ? null : JSON.stringify(list));

/** The columns a create or an update sets: the key sealed (never kept in the clear) and labelled, the lists as JSON. */
export function credentialColumns(
  body: Static<typeof UpdateByokBody> | Static<typeof CreateByokBody>,
  box: Envelope,
  now: string,
): Updateable<ByokCredentialsTable> {
  const columns: Updateable<ByokCredentialsTable> = { updated_at: now };
  if (body.key !== undefined) {
    const sealed = box.seal(body.key);
    Object.assign(columns, {
      sealed_key: sealed.sealedKey,
      wrapped_data_key: sealed.wrappedDataKey,
      master_key_id: sealed.masterKeyId,
      label: keyLabel(body.key),
    });
  }
  if (body.name !== undefined) columns.name = body.name;
  for (const field of ['allowed_api_key_hashes', 'allowed_models', 'allowed_user_ids'] as const) {
    const value = json(body[field]);
    if (value !== undefined) columns[field] = value;
  }
  if (body.disabled !== undefined) columns.disabled = body.disabled ? 1 : 0;
  if (body.is_fallback !== undefined) columns.is_fallback = body.is_fallback ? 1 : 0;
  if (body.sort_order !== undefined) columns.sort_order = body.sort_order;
  return columns;
}
