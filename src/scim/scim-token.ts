import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashApiKey } from '../accounts/api-key-material.js';
import { putScimToken, type ScimTokenRecord } from '../store/repositories/scim-tokens.js';
import type { Database } from '../store/schema.js';

const TOKEN_PREFIX = 'scim-mg-v1-';

/**
 * A new SCIM bearer token for the organization, replacing the one before at once (rotation): the
 * identity provider must be given the new one. Only its SHA-256 is stored; it is shown once.
 */
export async function createScimToken(
  db: Kysely<Database>,
  organizationId: string,
  createdBy: string | null,
  now: string,
): Promise<{ token: string; record: ScimTokenRecord }> {
  const secret = randomBytes(32).toString('hex');
  const token = `${TOKEN_PREFIX}${secret}`;
  const record = { label: `${TOKEN_PREFIX}${secret.slice(0, 3)}...${secret.slice(-4)}`, created_at: now, created_by: createdBy };
  await putScimToken(db, organizationId, hashApiKey(token), record);
  return { token, record };
}
