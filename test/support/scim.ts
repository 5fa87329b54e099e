import { randomUUID } from 'node:crypto';
import { enroll } from '../../src/store/repositories/interns.js';
import { call, type RunningGateway } from './gateway.js';

/** A SCIM client's request to the gateway's /scim/v2, with the organization's SCIM token, as an identity provider sends it. */
export async function scim(
  gw: RunningGateway,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Headers }> {
  return call(gw, method, `/scim/v2${path}`, {
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** What a provisioning test starts from: the organization's SCIM token, a second workspace, the interns programme on. */
export async function scimWorld(gw: RunningGateway): Promise<{ token: string; workspaceId: string }> {
  const created = await call(gw, 'POST', '/scim/token', { key: gw.managementKey });
  if (created.status !== 201) throw new Error(`POST /scim/token answered ${created.status}`);
  const workspaceId = randomUUID();
  const now = new Date().toISOString();
  await gw.store.db
    .insertInto('workspaces')
    .values({
      id: workspaceId,
      organization_id: gw.organizationId,
      name: 'Research',
      slug: `research-${workspaceId.slice(0, 8)}`,
      is_default: 0,
      created_at: now,
      description: null,
      default_text_model: null,
      default_image_model: null,
      default_provider_sort: null,
      default_guardrail_id: null,
      io_logging_api_key_ids: null,
      created_by: null,
      updated_at: now,
      deleted_at: null,
    })
    .execute();
  await enroll(gw.store.db, gw.organizationId, now);
  return { token: created.body.token as string, workspaceId };
}

/** A user's memberships as the tables hold them: the organization role, and workspace → role (with whether SCIM granted it). */
export async function accessOf(gw: RunningGateway, userId: string) {
  const membership = await gw.store.db
    .selectFrom('memberships')
    .select('role')
    .where('organization_id', '=', gw.organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const workspaces = await gw.store.db
    .selectFrom('workspace_members')
    .select(['workspace_id', 'role', 'scim_managed'])
    .where('user_id', '=', userId)
    .execute();
  return {
    organizationRole: membership?.role ?? null,
    workspaces: Object.fromEntries(workspaces.map((row) => [row.workspace_id, row.role])),
  };
}

/** Keys created for a member (on their behalf, by the owner's management key): a management key and an ordinary one. */
export async function keysOf(gw: RunningGateway, userId: string): Promise<{ management: string; plain: string; managementHash: string }> {
  const management = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'theirs', creator_user_id: userId } });
  const plain = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'plain', creator_user_id: userId } });
  if (management.status !== 201 || plain.status !== 201) throw new Error(`POST /keys answered ${management.status}/${plain.status}`);
  await gw.store.db.updateTable('api_keys').set({ is_management: 1 }).where('hash', '=', management.body.data.hash).execute();
  return { management: management.body.key, plain: plain.body.key, managementHash: management.body.data.hash };
}
