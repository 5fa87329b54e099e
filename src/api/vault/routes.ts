import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { ApiKeyRow } from '../../store/repositories/api-keys.js';
import {
  deleteSecret,
  findSecrets,
  listSecrets,
  putSecret,
  type VaultScope,
  type VaultSecretRow,
} from '../../store/repositories/intern-vault.js';
import { findIntern, type InternRow } from '../../store/repositories/interns.js';
import type { SecretBox } from '../../util/secret-box.js';
import { keyReach } from '../../workspaces/management-reach.js';
import { requestWorkspace } from '../../workspaces/request-workspace.js';
import { type InternServices, installInternErrors, internGate } from '../interns/intern-services.js';
import { INTERN_BODY_LIMIT } from '../interns/schemas.js';
import { normalizeHosts } from './hosts.js';
import {
  CopySecretsBody,
  InternSecretParams,
  InternVaultParams,
  ListSecretsQuery,
  ListWorkspaceSecretsQuery,
  SecretParams,
  WorkspaceQuery,
  WriteSecretBody,
} from './schemas.js';

/** The SDK's VaultSecret: never the value. */
function toSecretRecord(row: VaultSecretRow) {
  let hosts: string[] | null = null;
  try {
    hosts = JSON.parse(row.hosts) as string[];
  } catch {
    // Shown as none.
  }
  return { name: row.name, created_at: row.created_at, fingerprint: row.fingerprint, hosts };
}

type VaultServices = InternServices & { box: SecretBox };

/**
 * The secret vault (the SDK's vault.*): workspace secrets under /vault/secrets
 * (the key's workspace, or one its management reach names), an intern's own
 * under /vault/interns/{internId}/secrets (an intern in the key's reach), all
 * behind the interns programme gate. Values are write-only.
 */
export function vaultRoutes(services: VaultServices): FastifyPluginAsyncTypebox {
  const { db, clock, box } = services;

  async function write(scope: VaultScope, name: string, body: { value: string; hosts: string[] }) {
    const normalized = normalizeHosts(body.hosts);
    if ('problem' in normalized) throw Errors.internBadRequest(normalized.problem);
    const row = await putSecret(
      db,
      scope,
      { name, ciphertext: box.seal(body.value), hosts: JSON.stringify(normalized.hosts), fingerprint: box.fingerprint(body.value) },
      clock().toISOString(),
    );
    return { data: toSecretRecord(row) };
  }

  async function list(scope: VaultScope, query: { limit?: number; offset?: number | null }) {
    const page = await listSecrets(db, scope, query.limit ?? 100, query.offset ?? 0);
    return { data: page.rows.map(toSecretRecord), has_more: page.hasMore };
  }

  async function remove(scope: VaultScope, name: string): Promise<void> {
    if (!(await deleteSecret(db, scope, name))) throw Errors.internNotFound(`Vault secret ${name}`);
  }

  const workspaceScope = (organizationId: string, workspaceId: string): VaultScope => ({
    table: 'vault_secrets',
    workspaceId,
    organizationId,
  });
  const requestScope = async (key: ApiKeyRow, requested: string | undefined): Promise<VaultScope> =>
    workspaceScope(key.organization_id, await requestWorkspace(db, key, requested));

  return async (app) => {
    // The SDK: every vault route, reads included, is for programme members (404 outside it), workspace secrets too.
    installInternErrors(app);
    app.addHook('onRequest', internGate(services));
    app.get('/vault/secrets', { schema: { querystring: ListWorkspaceSecretsQuery } }, async (request) =>
      list(await requestScope(callerKey(request), request.query.workspace_id), request.query),
    );
    app.put(
      '/vault/secrets/:name',
      { bodyLimit: INTERN_BODY_LIMIT, schema: { params: SecretParams, querystring: WorkspaceQuery, body: WriteSecretBody } },
      async (request) => write(await requestScope(callerKey(request), request.query.workspace_id), request.params.name, request.body),
    );
    app.delete('/vault/secrets/:name', { schema: { params: SecretParams, querystring: WorkspaceQuery } }, async (request, reply) => {
      await remove(await requestScope(callerKey(request), request.query.workspace_id), request.params.name);
      return reply.code(204).send();
    });

    /** An intern in the key's reach: another workspace's is as absent as a missing one. */
    const internIn = async (key: ApiKeyRow, internId: string): Promise<InternRow> => {
      const intern = await findIntern(db, keyReach(key), internId);
      if (!intern) throw Errors.internNotFound(`Intern ${internId}`);
      return intern;
    };
    const internScope = async (key: ApiKeyRow, internId: string): Promise<VaultScope> => ({
      table: 'intern_vault_secrets',
      internId: (await internIn(key, internId)).id,
    });
    app.get(
      '/vault/interns/:internId/secrets',
      { schema: { params: InternVaultParams, querystring: ListSecretsQuery } },
      async (request) => {
        return list(await internScope(callerKey(request), request.params.internId), request.query);
      },
    );
    app.put(
      '/vault/interns/:internId/secrets/:name',
      { bodyLimit: INTERN_BODY_LIMIT, schema: { params: InternSecretParams, body: WriteSecretBody } },
      async (request) => write(await internScope(callerKey(request), request.params.internId), request.params.name, request.body),
    );
    app.delete('/vault/interns/:internId/secrets/:name', { schema: { params: InternSecretParams } }, async (request, reply) => {
      await remove(await internScope(callerKey(request), request.params.internId), request.params.name);
      return reply.code(204).send();
    });
    app.post(
      '/vault/interns/:internId/secrets/copy',
      { bodyLimit: INTERN_BODY_LIMIT, schema: { params: InternVaultParams, body: CopySecretsBody } },
      async (request) => {
        const intern = await internIn(callerKey(request), request.params.internId);
        const scope: VaultScope = { table: 'intern_vault_secrets', internId: intern.id };
        // From the intern's own workspace: a secret never crosses the boundary.
        const sources = await findSecrets(db, workspaceScope(intern.organization_id, intern.workspace_id), request.body.names);
        const missing = request.body.names.filter((name) => !sources.some((s) => s.name === name));
        if (missing.length > 0) throw Errors.internNotFound(`Workspace vault secret ${missing.join(', ')}`);
        const now = clock().toISOString();
        const copied = [];
        for (const s of sources)
          copied.push(
            await putSecret(db, scope, { name: s.name, ciphertext: s.ciphertext, hosts: s.hosts, fingerprint: s.fingerprint ?? '' }, now),
          );
        return { data: copied.map(toSecretRecord) };
      },
    );
  };
}

/** What the runtime's tools get: an intern's secret values and the hosts each may be sent to. */
export function internSecretReader(services: Pick<VaultServices, 'db' | 'box'>) {
  return {
    async withHosts(internId: string, names: readonly string[]): Promise<Record<string, { value: string; hosts: string[] }>> {
      const rows = await findSecrets(services.db, { table: 'intern_vault_secrets', internId }, names);
      return Object.fromEntries(
        rows.map((row) => [row.name, { value: services.box.open(row.ciphertext), hosts: JSON.parse(row.hosts) as string[] }]),
      );
    },
  };
}
