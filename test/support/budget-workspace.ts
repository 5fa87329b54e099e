import { randomUUID } from 'node:crypto';
import { call, type RunningGateway } from './gateway.js';

/**
 * A workspace of the gateway's organization, written to its database (the
 * workspaces routes are another part's), and keys made in it through
 * POST /keys: what a budget test governs.
 */
export async function budgetWorkspace(gw: RunningGateway, slug: string) {
  const id = randomUUID();
  await gw.store.db
    .insertInto('workspaces')
    .values({ id, organization_id: gw.organizationId, name: slug, slug, is_default: 0, created_at: new Date().toISOString() })
    .execute();
  const newKey = async (name: string) => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name, workspace_id: id } });
    if (created.status !== 201) throw new Error(`key not created: ${JSON.stringify(created.body)}`);
    return created.body.key as string;
  };
  const setBudget = (interval: string, body: Record<string, unknown>) =>
    call(gw, 'PUT', `/workspaces/${slug}/budgets/${interval}`, { key: gw.managementKey, body });
  return { id, slug, newKey, setBudget };
}
