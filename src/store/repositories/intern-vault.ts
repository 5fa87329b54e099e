import type { Kysely, Selectable } from 'kysely';
import type { Database, InternVaultSecretsTable } from '../schema.js';

export type VaultSecretRow = Pick<
  Selectable<InternVaultSecretsTable>,
  'name' | 'ciphertext' | 'hosts' | 'fingerprint' | 'created_at' | 'updated_at'
>;
export interface SealedSecret {
  name: string;
  ciphertext: string;
  /** JSON string[]. */
  hosts: string;
  fingerprint: string;
}

/** An intern's vault, or a workspace's: the same operations on two tables. */
export type VaultScope =
  | { table: 'intern_vault_secrets'; internId: string }
  | { table: 'vault_secrets'; workspaceId: string; organizationId: string };

const COLUMNS = ['name', 'ciphertext', 'hosts', 'fingerprint', 'created_at', 'updated_at'] as const;

/** Creates or replaces a secret; a replaced one keeps its created_at. */
export async function putSecret(db: Kysely<Database>, scope: VaultScope, secret: SealedSecret, now: string): Promise<VaultSecretRow> {
  const values = { ...secret, created_at: now, updated_at: now };
  const update = { ciphertext: secret.ciphertext, hosts: secret.hosts, fingerprint: secret.fingerprint, updated_at: now };
  if (scope.table === 'intern_vault_secrets') {
    await db
      .insertInto('intern_vault_secrets')
      .values({ ...values, intern_id: scope.internId })
      .onConflict((oc) => oc.columns(['intern_id', 'name']).doUpdateSet(update))
      .execute();
  } else {
    await db
      .insertInto('vault_secrets')
      .values({ ...values, workspace_id: scope.workspaceId, organization_id: scope.organizationId })
      .onConflict((oc) => oc.columns(['workspace_id', 'name']).doUpdateSet(update))
      .execute();
  }
  const [row] = await findSecrets(db, scope, [secret.name]);
  if (!row) throw new Error(`vault secret ${secret.name} vanished after it was written`);
  return row;
}

export function findSecrets(db: Kysely<Database>, scope: VaultScope, names: readonly string[]): Promise<VaultSecretRow[]> {
  if (names.length === 0) return Promise.resolve([]);
  return scope.table === 'intern_vault_secrets'
    ? db
        .selectFrom('intern_vault_secrets')
        .select(COLUMNS)
        .where('intern_id', '=', scope.internId)
        .where('name', 'in', names)
        .orderBy('name')
        .execute()
    : db
        .selectFrom('vault_secrets')
        .select(COLUMNS)
        .where('workspace_id', '=', scope.workspaceId)
        .where('name', 'in', names)
        .orderBy('name')
        .execute();
}

/** By name; one row more than `limit` is read to tell whether more follow. */
export async function listSecrets(
  db: Kysely<Database>,
  scope: VaultScope,
  limit: number,
  offset: number,
): Promise<{ rows: VaultSecretRow[]; hasMore: boolean }> {
  const rows =
    scope.table === 'intern_vault_secrets'
      ? await db
          .selectFrom('intern_vault_secrets')
          .select(COLUMNS)
          .where('intern_id', '=', scope.internId)
          .orderBy('name')
          .limit(limit + 1)
          .offset(offset)
          .execute()
      : await db
          .selectFrom('vault_secrets')
          .select(COLUMNS)
          .where('workspace_id', '=', scope.workspaceId)
          .orderBy('name')
          .limit(limit + 1)
          .offset(offset)
          .execute();
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function deleteSecret(db: Kysely<Database>, scope: VaultScope, name: string): Promise<boolean> {
  const result =
    scope.table === 'intern_vault_secrets'
      ? await db.deleteFrom('intern_vault_secrets').where('intern_id', '=', scope.internId).where('name', '=', name).executeTakeFirst()
      : await db.deleteFrom('vault_secrets').where('workspace_id', '=', scope.workspaceId).where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
