import { InvalidArgumentError } from 'commander';
import { createScimToken } from '../scim/scim-token.js';
import { findOrganization } from '../store/repositories/organizations.js';
import type { KeyCommandContext } from './keys-commands.js';
import { formatFields, formatJson } from './output.js';

// `model-gateway scim token create`: the SCIM bearer token an identity provider presents at /api/v1/scim/v2 (the API's POST /scim/token).

/**
 * Creates the organization's SCIM token (the default one unless --org), replacing the one before at
 * once, and prints it once. Servers read tokens from the database on each SCIM request: nothing to announce.
 */
export async function createScimTokenCommand(
  { store, organizationId, now }: KeyCommandContext,
  options: { org?: string; json: boolean },
): Promise<string> {
  const target = options.org ?? organizationId;
  if (!(await findOrganization(store.db, target))) throw new InvalidArgumentError(`--org ${target} is not an organization`);
  const { token, record } = await createScimToken(store.db, target, null, now.toISOString());
  if (options.json) return formatJson({ data: record, token });
  return formatFields({ token, label: record.label, created_at: record.created_at, organization_id: target });
}
