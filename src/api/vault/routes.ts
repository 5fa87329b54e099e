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
import { findIntern } from '../../store/repositories/interns.js';
import { type InternServices, installInternErrors, internGate } from '../interns/intern-services.js';
import { INTERN_BODY_LIMIT } from '../interns/schemas.js';
import { normalizeHosts } from './hosts.js';
import { CopySecretsBody, InternSecretParams, InternVaultParams, ListSecretsQuery, SecretParams, WriteSecretBody } from './schemas.js';
import type { SecretBox } from './secret-box.js';

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
 * (the key's workspace), an intern's own under /vault/interns/{internId}/secrets,
 * all behind the interns programme gate. Values are write-only.
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

  const workspaceScope = (key: ApiKeyRow): VaultScope => ({
    table: 'vault_secrets',
    workspaceId: key.workspace_id,
    organizationId: key.organization_id,
  });

  return async (app) => {
    // The SDK: every vault route, reads included, is for programme members (404 outside it), workspace secrets too.
    installInternErrors(app);
    app.addHook('onRequest', internGate(services));
    app.get('/vault/secrets', { schema: { querystring: ListSecretsQuery } }, async (request) =>
      list(workspaceScope(callerKey(request)), request.query),
    );
    app.put(
      '/vault/secrets/:name',
      { bodyLimit: INTERN_BODY_LIMIT, schema: { params: SecretParams, body: WriteSecretBody } },
      async (request) => write(workspaceScope(callerKey(request)), request.params.name, request.body),
    );
    app.delete('/vault/secrets/:name', { schema: { params: SecretParams } }, async (request, reply) => {
      await remove(workspaceScope(callerKey(request)), request.params.name);
      return reply.code(204).send();
    });

    const internScope = async (key: ApiKeyRow, internId: string): Promise<VaultScope> => {
      if (!(await findIntern(db, key.organization_id, internId))) throw Errors.internNotFound(`Intern ${internId}`);
      return { table: 'intern_vault_secrets', internId };
    };
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
        const key = callerKey(request);
        const scope = await internScope(key, request.params.internId);
        const sources = await findSecrets(db, workspaceScope(key), request.body.names);
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
