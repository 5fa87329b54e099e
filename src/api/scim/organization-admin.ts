import type { Kysely } from 'kysely';
import { Errors } from '../../http/errors.js';
import type { ApiKeyRow } from '../../store/repositories/api-keys.js';
import type { Database } from '../../store/schema.js';

/**
 * SCIM settings are the organization's: only a management key that reaches the whole organization
 * and was created by its owner or an admin (or by no one in particular: the bootstrap key) may change them.
 */
export async function requireOrganizationAdmin(db: Kysely<Database>, key: ApiKeyRow, what: string): Promise<void> {
  if (key.management_scope === 'workspace') throw Errors.organizationAdminRequired(what);
  if (key.creator_user_id === null) return;
  const membership = await db
    .selectFrom('memberships')
    .select('role')
    .where('organization_id', '=', key.organization_id)
    .where('user_id', '=', key.creator_user_id)
    .executeTakeFirst();
  if (membership?.role !== 'owner' && membership?.role !== 'admin') throw Errors.organizationAdminRequired(what);
}
