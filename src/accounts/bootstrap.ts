import type { Kysely } from 'kysely';
import { findApiKeyByHash } from '../store/repositories/api-keys.js';
import { findDefaultOrganization } from '../store/repositories/organizations.js';
import { findDefaultWorkspace } from '../store/repositories/workspaces.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import { newOrganizationId, newUserId, newUuid } from '../util/ids.js';
import { hashApiKey } from './api-key-material.js';
import { createApiKey } from './create-api-key.js';

export const OWNER_EMAIL = 'owner@localhost';

export interface BootstrapResult {
  organizationId: string;
  /** Set when this start created a management key whose secret must be shown once. */
  createdKey?: string;
  /** True when the configured bootstrap key was stored by this start. */
  storedConfiguredKey: boolean;
}

/**
 * First start on an empty database: the default organization, its owner, its
 * default workspace and a management key. Safe to run on every start and from
 * several instances at once: the unique slug of the default organization lets
 * exactly one of them create it.
 */
export async function bootstrap(db: Kysely<Database>, clock: Clock, configuredKey: string | undefined): Promise<BootstrapResult> {
  return db.transaction().execute(async (trx) => {
    const now = clock().toISOString();
    const organizationId = newOrganizationId();
    const inserted = await trx
      .insertInto('organizations')
      .values({ id: organizationId, name: 'Default organization', slug: 'default', is_default: 1, created_at: now })
      .onConflict((oc) => oc.column('slug').doNothing())
      .executeTakeFirst();

    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) {
      const org = await findDefaultOrganization(trx);
      if (!org) throw new Error('the default organization is missing although its slug is taken');
      const storedConfiguredKey = configuredKey ? await ensureConfiguredKey(trx, org.id, configuredKey, now) : false;
      return { organizationId: org.id, storedConfiguredKey };
    }

    const ownerId = newUserId();
    await trx
      .insertInto('users')
      .values({ id: ownerId, email: OWNER_EMAIL, first_name: 'Owner', last_name: null, created_at: now })
      .execute();
    await trx
      .insertInto('memberships')
      .values({ organization_id: organizationId, user_id: ownerId, role: 'owner', created_at: now })
      .execute();
    const workspaceId = newUuid();
    await trx
      .insertInto('workspaces')
      .values({ id: workspaceId, organization_id: organizationId, name: 'Default', slug: 'default', is_default: 1, created_at: now })
      .execute();
    const { key } = await createApiKey(
      trx,
      {
        organizationId,
        workspaceId,
        name: 'Bootstrap management key',
        isManagement: true,
        creatorUserId: ownerId,
        ...(configuredKey ? { key: configuredKey } : {}),
      },
      now,
    );
    return configuredKey ? { organizationId, storedConfiguredKey: true } : { organizationId, createdKey: key, storedConfiguredKey: false };
  });
}

async function ensureConfiguredKey(db: Kysely<Database>, organizationId: string, key: string, now: string): Promise<boolean> {
  if (await findApiKeyByHash(db, hashApiKey(key))) return false;
  const workspace = await findDefaultWorkspace(db, organizationId);
  if (!workspace) throw new Error('the default organization has no default workspace');
  const owner = await db
    .selectFrom('memberships')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'owner')
    .executeTakeFirst();
  await createApiKey(
    db,
    {
      organizationId,
      workspaceId: workspace.id,
      name: 'Bootstrap management key',
      isManagement: true,
      creatorUserId: owner?.user_id ?? null,
      key,
    },
    now,
  );
  return true;
}
