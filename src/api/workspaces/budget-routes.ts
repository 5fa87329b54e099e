import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { WORKSPACE_BUDGETS_TOPIC } from '../../accounting/workspace-budget-cache.js';
import { BUDGET_INTERVALS } from '../../accounting/workspace-budget-rules.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { deleteWorkspaceBudget, findWorkspaceUsage, listWorkspaceBudgets } from '../../store/repositories/workspace-budgets.js';
import { managementReach } from '../../workspaces/management-reach.js';
import { toBudgetRecord } from './budget-record.js';
import { BudgetParams, UpsertBudgetBody } from './budget-schemas.js';
import { WorkspaceParams } from './schemas.js';
import { setWorkspaceBudget } from './set-workspace-budget.js';
import { workspaceOf } from './workspace-operations.js';

/**
 * The reference's workspace budget operations (GET /workspaces/{id}/budgets,
 * GET/PUT/DELETE /workspaces/{id}/budgets/{interval}), management key
 * required; `{id}` is the workspace's UUID or slug. A workspace of another
 * organization, a deleted one, or one outside a workspace-scoped key's reach
 * is as absent as a missing one. A change reaches every instance's budget
 * cache through the change feed, so the next request is held to it.
 */
export function workspaceBudgetRoutes({
  db,
  clock,
  auth,
  changes,
}: Pick<Services, 'db' | 'clock' | 'auth' | 'changes'>): FastifyPluginAsyncTypebox {
  const budgetWorkspace = async (request: FastifyRequest, idOrSlug: string) => {
    const caller = callerKey(request);
    const workspace = await workspaceOf(db, managementReach(caller), idOrSlug);
    return { id: workspace.id, includeByok: workspace.include_byok_in_budgets === 1, organizationId: caller.organization_id };
  };

  return async (app) => {
    app.get('/workspaces/:id/budgets', { onRequest: auth.requireManagementKey, schema: { params: WorkspaceParams } }, async (request) => {
      const workspace = await budgetWorkspace(request, request.params.id);
      const [budgets, usage] = await Promise.all([listWorkspaceBudgets(db, workspace.id), findWorkspaceUsage(db, workspace.id)]);
      const now = clock();
      const ordered = BUDGET_INTERVALS.flatMap((interval) => budgets.filter((budget) => budget.reset_interval === interval));
      return {
        data: ordered.map((budget) => toBudgetRecord(budget, usage, workspace.includeByok, now)),
        include_byok_in_budgets: workspace.includeByok,
      };
    });

    app.get(
      '/workspaces/:id/budgets/:interval',
      { onRequest: auth.requireManagementKey, schema: { params: BudgetParams } },
      async (request) => {
        const { id, interval } = request.params;
        const workspace = await budgetWorkspace(request, id);
        const [budgets, usage] = await Promise.all([listWorkspaceBudgets(db, workspace.id), findWorkspaceUsage(db, workspace.id)]);
        const budget = budgets.find((row) => row.reset_interval === interval);
        if (!budget) throw Errors.notFound(`The ${interval} budget of workspace ${id}`);
        return { data: toBudgetRecord(budget, usage, workspace.includeByok, clock()), include_byok_in_budgets: workspace.includeByok };
      },
    );

    app.put(
      '/workspaces/:id/budgets/:interval',
      { onRequest: auth.requireManagementKey, schema: { params: BudgetParams, body: UpsertBudgetBody } },
      async (request) => {
        const { id, interval } = request.params;
        const workspace = await budgetWorkspace(request, id);
        const answer = await setWorkspaceBudget(db, workspace, interval, request.body, clock());
        await changes.publish(WORKSPACE_BUDGETS_TOPIC, workspace.organizationId);
        return answer;
      },
    );

    app.delete(
      '/workspaces/:id/budgets/:interval',
      { onRequest: auth.requireManagementKey, schema: { params: BudgetParams } },
      async (request) => {
        const workspace = await budgetWorkspace(request, request.params.id);
        // The reference answers deleted: true whether or not there was a budget.
        if (await deleteWorkspaceBudget(db, workspace.id, request.params.interval))
          await changes.publish(WORKSPACE_BUDGETS_TOPIC, workspace.organizationId);
        return { deleted: true as const };
      },
    );
  };
}
