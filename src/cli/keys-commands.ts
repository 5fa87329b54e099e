import { InvalidArgumentError } from 'commander';
import { createApiKey } from '../accounts/create-api-key.js';
import { keyExpiry, keyWorkspace, updateKey } from '../api/keys/key-operations.js';
import { toKeyRecord } from '../api/keys/key-record.js';
import { CreateKeyBody, KEYS_PAGE_SIZE, ListKeysQuery, UpdateKeyBody } from '../api/keys/schemas.js';
import { API_KEY_TOPIC } from '../services.js';
import type { Store } from '../store/database.js';
import { organizationReach } from '../store/reach.js';
import { type ApiKeyRow, deleteApiKey, findApiKey, listApiKeys } from '../store/repositories/api-keys.js';
import { organizationRoles, workspaceRole } from '../store/repositories/workspace-members.js';
import type { Workspace } from '../store/repositories/workspaces.js';
import { type KeyCreator, newManagementScope } from '../workspaces/management-reach.js';
import { announce } from './announce.js';
import { checkAsApi, jsonOption } from './api-rules.js';
import { formatFields, formatJson, formatTable, usd } from './output.js';

// `model-gateway keys …`: the operations of /api/v1/keys on the default organization, by hash as the API names keys.

export interface KeyCommandContext {
  store: Store;
  organizationId: string;
  /** Where running servers hear of a changed key (else PostgreSQL NOTIFY; see announce.ts). */
  redisUrl: string | undefined;
  now: Date;
}

type KeyRecord = ReturnType<typeof toKeyRecord>;

const state = (key: KeyRecord, now: Date) =>
  key.disabled ? 'disabled' : key.expires_at !== null && Date.parse(key.expires_at) <= now.getTime() ? 'expired' : 'active';

function keysTable(keys: readonly KeyRecord[], now: Date): string {
  return formatTable(
    ['HASH', 'NAME', 'LABEL', 'STATE', 'LIMIT', 'RESET', 'REMAINING', 'USAGE', 'EXPIRES'],
    keys.map((key) => [
      key.hash,
      key.name,
      key.label,
      state(key, now),
      usd(key.limit),
      key.limit_reset,
      usd(key.limit_remaining),
      usd(key.usage),
      key.expires_at,
    ]),
  );
}

/** One key: its fields for people, the API's `{data}` for scripts. */
const showRecord = (row: ApiKeyRow, now: Date, json: boolean) =>
  json ? formatJson({ data: toKeyRecord(row, now) }) : formatFields(toKeyRecord(row, now));

export interface CreateKeyOptions {
  name: string;
  management: boolean;
  /** The key's workspace (its id), else the default one. */
  workspace?: string;
  /** A management key that manages only its workspace. */
  workspaceScope?: boolean;
  /** The member the key is for. */
  creatorUserId?: string;
  limit?: string;
  limitReset?: string;
  expiresAt?: string;
}

/**
 * Creates a key (in the default workspace unless one is named); the key itself is returned once, its hash is told on stderr.
 * A management key's scope follows newManagementScope: a workspace admin's key manages only that workspace.
 */
export async function createKey(
  { store, organizationId, now }: KeyCommandContext,
  options: CreateKeyOptions,
): Promise<{ key: string; row: ApiKeyRow }> {
  const body = checkAsApi(
    CreateKeyBody,
    {
      name: options.name,
      ...(options.limit !== undefined ? { limit: jsonOption(options.limit) } : {}),
      ...(options.limitReset !== undefined ? { limit_reset: jsonOption(options.limitReset) } : {}),
      ...(options.expiresAt !== undefined ? { expires_at: options.expiresAt } : {}),
      ...(options.workspace !== undefined ? { workspace_id: options.workspace } : {}),
      ...(options.creatorUserId !== undefined ? { creator_user_id: options.creatorUserId } : {}),
    },
    'body',
  );
  if (options.workspaceScope && !options.management)
    throw new InvalidArgumentError('--workspace-scope is for management keys (--management)');
  const expiresAt = keyExpiry(body.expires_at, now);
  const workspace = await keyWorkspace(store.db, organizationId, body.workspace_id);
  const creator = body.creator_user_id ? await keyCreator(store, organizationId, workspace, body.creator_user_id) : undefined;
  return createApiKey(
    store.db,
    {
      organizationId,
      workspaceId: workspace.id,
      name: body.name,
      isManagement: options.management,
      managementScope: options.management ? newManagementScope(options.workspaceScope ?? false, creator) : null,
      creatorUserId: creator?.userId ?? null,
      limit: body.limit ?? null,
      limitReset: body.limit_reset ?? null,
      expiresAt,
    },
    now.toISOString(),
  );
}

/** The member a key is made for, with their roles; one who is not a member of the organization is refused as the API refuses them. */
async function keyCreator(store: Store, organizationId: string, workspace: Workspace, userId: string): Promise<KeyCreator> {
  const organizationRole = (await organizationRoles(store.db, organizationId, [userId])).get(userId);
  if (!organizationRole) throw new InvalidArgumentError(`creator_user_id ${userId} is not a member of this organization`);
  return { userId, organizationRole, workspaceRole: await workspaceRole(store.db, workspace, userId) };
}

export interface ListKeysOptions {
  workspace?: string;
  includeDisabled: boolean;
  offset?: string;
  json: boolean;
}

/** A page of the keys of a workspace (the default one unless named), as `GET /keys` lists them. */
export async function listKeys({ store, organizationId, now }: KeyCommandContext, options: ListKeysOptions): Promise<string> {
  const query = checkAsApi(
    ListKeysQuery,
    {
      include_disabled: options.includeDisabled,
      ...(options.offset !== undefined ? { offset: options.offset } : {}),
      ...(options.workspace !== undefined ? { workspace_id: options.workspace } : {}),
    },
    'querystring',
  );
  const workspace = await keyWorkspace(store.db, organizationId, query.workspace_id);
  const rows = await listApiKeys(store.db, {
    reach: organizationReach(organizationId),
    workspaceId: workspace.id,
    includeDisabled: query.include_disabled ?? false,
    offset: query.offset ?? 0,
    limit: KEYS_PAGE_SIZE,
  });
  const keys = rows.map((row) => toKeyRecord(row, now));
  if (options.json) return formatJson({ data: keys });
  const more =
    keys.length === KEYS_PAGE_SIZE ? `(${KEYS_PAGE_SIZE} shown; --offset ${(query.offset ?? 0) + KEYS_PAGE_SIZE} for more)\n` : '';
  return keysTable(keys, now) + more;
}

const notFound = (hash: string) => new InvalidArgumentError(`API key ${hash} not found`);

export async function showKey({ store, organizationId, now }: KeyCommandContext, hash: string, json: boolean): Promise<string> {
  const row = await findApiKey(store.db, organizationId, hash);
  if (!row) throw notFound(hash);
  return showRecord(row, now, json);
}

export interface UpdateKeyOptions {
  name?: string;
  limit?: string;
  limitReset?: string;
  includeByokInLimit?: boolean;
  creatorUserId?: string;
  /** Set by `keys disable` and `keys enable`. */
  disabled?: boolean;
  json: boolean;
}

/**
 * `PATCH /keys/{hash}` from the command line: the same fields, rules and
 * messages; running servers drop the key from their caches, so a disabled
 * key is refused on its next request.
 */
export async function changeKey(context: KeyCommandContext, hash: string, options: UpdateKeyOptions): Promise<string> {
  const body = checkAsApi(
    UpdateKeyBody,
    {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.limit !== undefined ? { limit: jsonOption(options.limit) } : {}),
      ...(options.limitReset !== undefined ? { limit_reset: jsonOption(options.limitReset) } : {}),
      ...(options.includeByokInLimit !== undefined ? { include_byok_in_limit: options.includeByokInLimit } : {}),
      ...(options.creatorUserId !== undefined ? { creator_user_id: options.creatorUserId } : {}),
      ...(options.disabled !== undefined ? { disabled: options.disabled } : {}),
    },
    'body',
  );
  if (Object.keys(body).length === 0) {
    throw new InvalidArgumentError(
      'nothing to change: give --name, --limit, --limit-reset, --include-byok-in-limit (or --no-…) or --creator-user-id',
    );
  }
  const { store, organizationId, redisUrl, now } = context;
  const row = await updateKey(store.db, organizationReach(organizationId), hash, body, now);
  if (!row) throw notFound(hash);
  await announce(store, redisUrl, API_KEY_TOPIC, row.hash);
  return showRecord(row, now, options.json);
}

export async function removeKey({ store, organizationId, redisUrl }: KeyCommandContext, hash: string, json: boolean): Promise<string> {
  if (!(await deleteApiKey(store.db, organizationId, hash))) throw notFound(hash);
  await announce(store, redisUrl, API_KEY_TOPIC, hash);
  return json ? formatJson({ deleted: true }) : `deleted API key ${hash}\n`;
}
