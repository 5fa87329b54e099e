import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAINER_DEFAULTS } from '../../src/containers/container-settings.js';
import { directoryStorage } from '../../src/files/storage/directory-storage.js';
import { newUuid } from '../../src/util/ids.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

/**
 * DELETE /workspaces/{id} takes what the workspace held with it (issue 31): presets, vault secrets, BYOK
 * credentials (their sealed material wiped), destinations (disabled, as the reference says), files and
 * containers with their bytes. A workspace holding an intern is refused, as one holding an active key.
 */
describe.each(testEngines)('deleting a workspace on $name', (engine) => {
  let gw: RunningGateway;
  let dir: string;
  const admin = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: gw.managementKey, body });
  let made = 0;
  /** A workspace and an enabled key in it; the key is disabled before the workspace can go. */
  const workspaceWithKey = async () => {
    made += 1;
    const workspace = (await admin('POST', '/workspaces', { name: `Team ${made}`, slug: `team-${made}` })).body.data;
    const key = (await admin('POST', '/keys', { name: 'k', workspace_id: workspace.id })).body;
    return { workspace, key: key.key as string, hash: key.data.hash as string };
  };
  const now = () => new Date().toISOString();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mg-workspace-delete-'));
    // The sandbox's user must reach the containers' directory.
    chmodSync(dir, 0o711);
    gw = await startGateway(engine, {
      files: { storage: directoryStorage(join(dir, 'files')), maxBytes: 1 << 20, workspaceQuotaBytes: 1 << 22 },
      containers: { ...CONTAINER_DEFAULTS, directory: join(dir, 'containers') },
    });
  });
  afterAll(async () => {
    await gw?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes its presets, vault secrets, BYOK credentials, destinations, files and containers, and leaves another workspace’s alone', async () => {
    const doomed = await workspaceWithKey();
    const kept = await workspaceWithKey();
    const fill = async (workspace: { id: string }, key: string) => {
      const preset = await admin('POST', '/presets', { slug: 'shared-slug', workspace_id: workspace.id, config: { temperature: 0.2 } });
      expect(preset.status, JSON.stringify(preset.body)).toBe(201);
      const destination = await admin('POST', '/observability/destinations', {
        type: 'webhook',
        name: 'hook',
        workspace_id: workspace.id,
        config: { url: 'http://127.0.0.1:9/hook' },
      });
      expect(destination.status, JSON.stringify(destination.body)).toBe(201);
      const form = new FormData();
      form.append('purpose', 'user_data');
      form.append('file', new Blob(['notes'], { type: 'text/plain' }), 'notes.txt');
      const upload = await fetch(`${gw.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
      expect(upload.status).toBe(200);
      const file = (await upload.json()) as { id: string };
      const container = await call(gw, 'POST', '/containers', { key, body: { name: 'box' } });
      expect(container.status, JSON.stringify(container.body)).toBe(200);
      // The vault and BYOK need the interns programme and master keys set up: their rows are made directly.
      await gw.store.db
        .insertInto('vault_secrets')
        .values({
          workspace_id: workspace.id,
          organization_id: gw.organizationId,
          name: 'token',
          ciphertext: 'sealed',
          fingerprint: 'hmac-sha256:0000000000000000',
          hosts: '[]',
          created_at: now(),
          updated_at: now(),
        })
        .execute();
      const byokId = newUuid();
      await gw.store.db
        .insertInto('byok_credentials')
        .values({
          id: byokId,
          organization_id: gw.organizationId,
          workspace_id: workspace.id,
          provider: 'openai',
          label: 'sk-...abcd',
          sealed_key: 'sealed',
          wrapped_data_key: 'wrapped',
          master_key_id: 'm1',
          created_at: now(),
          updated_at: now(),
        })
        .execute();
      return { fileId: file.id, containerId: container.body.id as string, destinationId: destination.body.data.id as string, byokId };
    };
    const doomedHeld = await fill(doomed.workspace, doomed.key);
    const keptHeld = await fill(kept.workspace, kept.key);
    expect(readdirSync(join(dir, 'files'))).toHaveLength(2);
    expect(existsSync(join(dir, 'containers', doomedHeld.containerId))).toBe(true);

    expect((await admin('PATCH', `/keys/${doomed.hash}`, { disabled: true })).status).toBe(200);
    const deleted = await admin('DELETE', `/workspaces/${doomed.workspace.id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });

    const db = gw.store.db;
    const rowsOf = (table: 'presets' | 'vault_secrets' | 'files' | 'containers', workspaceId: string) =>
      db.selectFrom(table).select('workspace_id').where('workspace_id', '=', workspaceId).execute();
    for (const table of ['presets', 'vault_secrets', 'files', 'containers'] as const) {
      expect(await rowsOf(table, doomed.workspace.id), table).toEqual([]);
      expect(await rowsOf(table, kept.workspace.id), table).toHaveLength(1);
    }
    const byok = await db.selectFrom('byok_credentials').selectAll().where('id', 'in', [doomedHeld.byokId, keptHeld.byokId]).execute();
    expect(byok.find((row) => row.id === doomedHeld.byokId)).toMatchObject({
      sealed_key: null,
      wrapped_data_key: null,
      master_key_id: null,
      disabled: 1,
      deleted_at: expect.any(String),
    });
    expect(byok.find((row) => row.id === keptHeld.byokId)).toMatchObject({ sealed_key: 'sealed', deleted_at: null });
    const destinations = await db
      .selectFrom('observability_destinations')
      .select(['id', 'enabled', 'deleted_at'])
      .where('id', 'in', [doomedHeld.destinationId, keptHeld.destinationId])
      .execute();
    expect(destinations.find((row) => row.id === doomedHeld.destinationId)).toMatchObject({ enabled: 0, deleted_at: expect.any(String) });
    expect(destinations.find((row) => row.id === keptHeld.destinationId)).toMatchObject({ enabled: 1, deleted_at: null });
    // The bytes went too: the file's and the container's directory.
    expect(readdirSync(join(dir, 'files'))).toHaveLength(1);
    expect(existsSync(join(dir, 'containers', doomedHeld.containerId))).toBe(false);
    expect(existsSync(join(dir, 'containers', keptHeld.containerId))).toBe(true);
    // What is left answers as before.
    expect((await call(gw, 'GET', `/files/${keptHeld.fileId}`, { key: kept.key })).status).toBe(200);
    expect((await admin('GET', `/presets/shared-slug?workspace_id=${kept.workspace.id}`)).status).toBe(200);
  });

  it('refuses a workspace that holds an intern, naming how many, until the intern is gone', async () => {
    const { workspace, hash } = await workspaceWithKey();
    expect((await admin('PATCH', `/keys/${hash}`, { disabled: true })).status).toBe(200);
    const internId = `intern_${newUuid().replaceAll('-', '')}`;
    await gw.store.db
      .insertInto('interns')
      .values({
        id: internId,
        organization_id: gw.organizationId,
        workspace_id: workspace.id,
        name: 'helper',
        status: 'stopped',
        settings: '{}',
        created_at: now(),
        updated_at: now(),
      } as never)
      .execute();
    const refused = await admin('DELETE', `/workspaces/${workspace.id}`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-error-code')).toBe('GW_ERR_WORKSPACE_HAS_INTERNS');
    expect(refused.body.error.message).toBe(
      `Workspace ${workspace.slug} has 1 intern: delete it (DELETE /interns/{id}) before deleting the workspace`,
    );
    expect((await admin('GET', `/workspaces/${workspace.id}`)).status).toBe(200);

    await gw.store.db.deleteFrom('interns').where('id', '=', internId).execute();
    expect((await admin('DELETE', `/workspaces/${workspace.id}`)).status).toBe(200);
  });
});
