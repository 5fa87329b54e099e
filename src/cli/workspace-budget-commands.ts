import { InvalidArgumentError } from 'commander';
import { WORKSPACE_BUDGETS_TOPIC } from '../accounting/workspace-budget-cache.js';
import { BudgetParams, UpsertBudgetBody } from '../api/workspaces/budget-schemas.js';
import { setWorkspaceBudget } from '../api/workspaces/set-workspace-budget.js';
import { findWorkspace } from '../store/repositories/workspaces.js';
import { announce } from './announce.js';
import { checkAsApi, jsonOption } from './api-rules.js';
import type { KeyCommandContext } from './keys-commands.js';
import { formatFields, formatJson, usd } from './output.js';

// `model-gateway workspaces budget set …`: PUT /workspaces/{id}/budgets/{interval} from the command line.

export interface BudgetSetOptions {
  limit: string;
  /** The workspace-wide BYOK setting; unchanged when neither --include-byok nor --no-include-byok is given. */
  includeByok?: boolean;
  json: boolean;
}

/**
 * Sets a workspace's budget for one interval (the workspace by id or slug, in
 * the default organization), checked with the API's schema and rules, and
 * tells running servers (Redis or PostgreSQL NOTIFY; on SQLite alone they see
 * it within a minute).
 */
export async function setBudgetCommand(
  { store, organizationId, redisUrl, now }: KeyCommandContext,
  workspace: string,
  interval: string,
  options: BudgetSetOptions,
): Promise<string> {
  const params = checkAsApi(BudgetParams, { id: workspace, interval }, 'body');
  const body = checkAsApi(
    UpsertBudgetBody,
    {
      limit_usd: jsonOption(options.limit),
      ...(options.includeByok !== undefined ? { include_byok_in_budgets: options.includeByok } : {}),
    },
    'body',
  );
  const found = await findWorkspace(store.db, organizationId, params.id);
  if (!found) throw new InvalidArgumentError(`${params.id} is not a workspace of the organization (its id or slug)`);
  const answer = await setWorkspaceBudget(
    store.db,
    { id: found.id, includeByok: found.include_byok_in_budgets === 1 },
    params.interval,
    body,
    now,
  );
  await announce(store, redisUrl, WORKSPACE_BUDGETS_TOPIC, organizationId);
  if (options.json) return formatJson(answer);
  const { data } = answer;
  return formatFields({
    ...data,
    reset_interval: data.reset_interval ?? 'lifetime',
    usage: usd(data.usage),
    remaining: usd(data.remaining),
    include_byok_in_budgets: answer.include_byok_in_budgets,
  });
}
