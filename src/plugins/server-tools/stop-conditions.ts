/** One condition of `stop_server_tools_when` (reference StopServerToolsWhenCondition), as validated. */
export type StopCondition =
  | { type: 'step_count_is'; step_count: number }
  | { type: 'has_tool_call'; tool_name: string }
  | { type: 'max_tokens_used'; max_tokens: number }
  | { type: 'max_cost'; max_cost_in_dollars: number }
  | { type: 'finish_reason_is'; reason: string };

/** Where a server-tool loop stands after a step. */
export interface LoopState {
  /** Steps whose server-tool calls the gateway ran. */
  steps: number;
  /** Names of the tools called so far. */
  called: ReadonlySet<string>;
  /** total_tokens over every model call so far. */
  tokens: number;
  /** USD of every model call and inner call so far. */
  cost: number;
  /** The last model call's finish_reason. */
  finishReason: string | null;
}

/** Without `stop_server_tools_when`: how many steps of server-tool calls one request may take. */
export const DEFAULT_MAX_STEPS = 4;

/** The conditions in force: the request's, else at most DEFAULT_MAX_STEPS (or the caller's ceiling, e.g. fusion's max_tool_calls). */
export function stopConditions(requested: readonly Record<string, unknown>[] | undefined, maxSteps = DEFAULT_MAX_STEPS): StopCondition[] {
  return requested && requested.length > 0 ? (requested as unknown as StopCondition[]) : [{ type: 'step_count_is', step_count: maxSteps }];
}

/** The first condition that fired (any one stops the loop), described for the pipeline entry; undefined while the loop may go on. */
export function firedCondition(conditions: readonly StopCondition[], state: LoopState): string | undefined {
  for (const condition of conditions) {
    switch (condition.type) {
      case 'step_count_is':
        if (state.steps >= condition.step_count) return `step_count_is ${condition.step_count}`;
        break;
      case 'has_tool_call':
        if (state.called.has(condition.tool_name)) return `has_tool_call ${condition.tool_name}`;
        break;
      case 'max_tokens_used':
        if (state.tokens > condition.max_tokens) return `max_tokens_used ${condition.max_tokens}`;
        break;
      case 'max_cost':
        if (state.cost > condition.max_cost_in_dollars) return `max_cost ${condition.max_cost_in_dollars}`;
        break;
      case 'finish_reason_is':
        if (state.finishReason === condition.reason) return `finish_reason_is ${condition.reason}`;
        break;
    }
  }
  return undefined;
}
