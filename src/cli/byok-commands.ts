import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { InvalidArgumentError } from 'commander';
import { checkKeyHashes, credentialColumns, credentialWorkspace, knownProvider } from '../api/byok/byok-input.js';
import { toByokRecord } from '../api/byok/byok-record.js';
import { CreateByokBody } from '../api/byok/schemas.js';
import { BYOK_TOPIC } from '../byok/credential-cache.js';
import { envelope, type MasterKeys } from '../byok/envelope.js';
import { buildCatalog } from '../catalog/build-catalog.js';
import type { Catalog } from '../catalog/types.js';
import { loadGatewayConfig } from '../config/load-gateway-config.js';
import type { Settings } from '../config/settings.js';
import { PROVIDER_KINDS } from '../providers/registry.js';
import { organizationReach } from '../store/reach.js';
import {
  credentialsWrappedOtherThan,
  deleteByokCredential,
  insertByokCredential,
  listByokCredentials,
  setWrappedDataKey,
  updateByokCredential,
} from '../store/repositories/byok-credentials.js';
import { settingOrCreate } from '../store/repositories/gateway-settings.js';
import { newUuid } from '../util/ids.js';
import { announce } from './announce.js';
import { checkAsApi } from './api-rules.js';
import type { KeyCommandContext } from './keys-commands.js';
import { formatFields, formatJson, formatTable } from './output.js';

// `model-gateway byok …`: the /byok routes from the command line, for the operator (the whole organization's reach).

/** What the commands that seal or rewrap keys need beyond the database: the master keys (BYOK_MASTER_KEY…), none for the vault key. */
export type ByokCommandContext = KeyCommandContext & { masterKeys: MasterKeys | undefined };

/** The envelope the server seals with: the environment's master keys, and the vault key that opens rows sealed before one was set. */
async function serverEnvelope({ store, masterKeys }: ByokCommandContext) {
  const vaultKey = await settingOrCreate(store.db, 'vault_key', () => randomBytes(32).toString('hex'));
  return envelope(masterKeys ? [...masterKeys, vaultKey] : [vaultKey]);
}

/** The providers serve would know: those of the config file (GATEWAY_CONFIG) or the environment, without asking local servers. */
export function configuredCatalog(settings: Pick<Settings, 'configPath'>): Catalog {
  const config = settings.configPath ? loadGatewayConfig(settings.configPath, { knownKinds: PROVIDER_KINDS }) : undefined;
  return buildCatalog({ ...(config ? { config } : {}), env: process.env, knownKinds: PROVIDER_KINDS });
}

/** A key given as `--key -`: standard input, without its line end. */
export const readStdinKey = async (): Promise<string> => (await text(process.stdin)).trim();

export async function listByokCommand(context: KeyCommandContext, options: { workspace?: string; json: boolean }): Promise<string> {
  const reach = organizationReach(context.organizationId);
  const workspaceId =
    options.workspace === undefined ? undefined : ((await credentialWorkspace(context.store.db, reach, options.workspace)) ?? undefined);
  const { rows, total } = await listByokCredentials(context.store.db, reach, { workspaceId, offset: 0, limit: 1000 });
  const data = rows.map(toByokRecord);
  if (options.json) return formatJson({ data, total_count: total });
  return formatTable(
    ['id', 'provider', 'label', 'workspace', 'order', 'fallback', 'disabled', 'name'],
    data.map((c) => [c.id, c.provider, c.label, c.workspace_id ?? '(organization)', c.sort_order, c.is_fallback, c.disabled, c.name ?? '']),
  );
}

export interface AddByokOptions {
  provider: string;
  key: string;
  /** A workspace id or slug; `organization` for every workspace of the organization; the default workspace when absent. */
  workspace?: string;
  name?: string;
  fallback: boolean;
  sortOrder?: string;
  json: boolean;
}

/** Adds a credential checked as POST /byok checks it, and tells running servers. */
export async function addByokCommand(
  context: ByokCommandContext,
  catalog: Pick<Catalog, 'providers'>,
  options: AddByokOptions,
): Promise<string> {
  const { store, organizationId, redisUrl, now } = context;
  const body = checkAsApi(
    CreateByokBody,
    {
      provider: options.provider,
      key: options.key,
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.fallback ? { is_fallback: true } : {}),
      ...(options.sortOrder !== undefined ? { sort_order: Number(options.sortOrder) } : {}),
    },
    'body',
  );
  const reach = organizationReach(organizationId);
  const workspaceId = await credentialWorkspace(store.db, reach, options.workspace === 'organization' ? null : options.workspace);
  const provider = knownProvider(catalog, body.provider);
  await checkKeyHashes(store.db, organizationId, body.allowed_api_key_hashes);
  const at = now.toISOString();
  const columns = credentialColumns(body, await serverEnvelope(context), at);
  const row = await insertByokCredential(store.db, {
    ...columns,
    id: newUuid(),
    organization_id: organizationId,
    workspace_id: workspaceId,
    provider,
    label: columns.label as string,
    created_at: at,
    updated_at: at,
  });
  await announce(store, redisUrl, BYOK_TOPIC, organizationId);
  const record = toByokRecord(row);
  return options.json ? formatJson({ data: record }) : formatFields(record);
}

export async function disableByokCommand(context: KeyCommandContext, id: string, disabled: boolean): Promise<string> {
  const row = await updateByokCredential(context.store.db, organizationReach(context.organizationId), id, {
    disabled: disabled ? 1 : 0,
    updated_at: context.now.toISOString(),
  });
  if (!row) throw new InvalidArgumentError(`${id} is not a BYOK credential of the organization`);
  await announce(context.store, context.redisUrl, BYOK_TOPIC, context.organizationId);
  return `${disabled ? 'disabled' : 'enabled'} ${id}\n`;
}

export async function deleteByokCommand(context: KeyCommandContext, id: string): Promise<string> {
  if (!(await deleteByokCredential(context.store.db, organizationReach(context.organizationId), id, context.now.toISOString())))
    throw new InvalidArgumentError(`${id} is not a BYOK credential of the organization`);
  await announce(context.store, context.redisUrl, BYOK_TOPIC, context.organizationId);
  return `deleted ${id} (its key material is wiped)\n`;
}

/**
 * Rewraps every credential's data key under the current master key (after
 * BYOK_MASTER_KEY changed, the old one in BYOK_MASTER_KEYS_PREVIOUS): the
 * sealed keys stay as they are. Once it has run, the old master key can go.
 */
export async function rewrapByokCommand(context: ByokCommandContext): Promise<string> {
  const box = await serverEnvelope(context);
  const rows = await credentialsWrappedOtherThan(context.store.db, box.currentKeyId);
  for (const row of rows) {
    const moved = box.rewrap({ wrappedDataKey: row.wrapped_data_key!, masterKeyId: row.master_key_id! });
    await setWrappedDataKey(context.store.db, row.id, moved.wrappedDataKey, moved.masterKeyId);
  }
  return `rewrapped ${rows.length} credential${rows.length === 1 ? '' : 's'} under master key ${box.currentKeyId}\n`;
}
