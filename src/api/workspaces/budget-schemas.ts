import { Type } from 'typebox';
import { BUDGET_INTERVALS } from '../../accounting/workspace-budget-rules.js';
import { StringEnum } from '../../http/schema-helpers.js';
import { WorkspaceParams } from './schemas.js';

/** The largest budget one interval may have, in USD: any finite amount a team means (and never Infinity, which JSON's 1e309 becomes). */
export const MAX_BUDGET_USD = 1_000_000_000;

/** The workspace's id (UUID) or slug, and the reference's WorkspaceBudgetInterval, in the path. */
export const BudgetParams = Type.Object({
  ...WorkspaceParams.properties,
  interval: StringEnum(BUDGET_INTERVALS),
});

/** The reference's UpsertWorkspaceBudgetRequest. */
export const UpsertBudgetBody = Type.Object({
  limit_usd: Type.Number({ minimum: 0, maximum: MAX_BUDGET_USD }),
  include_byok_in_budgets: Type.Optional(Type.Boolean()),
});
