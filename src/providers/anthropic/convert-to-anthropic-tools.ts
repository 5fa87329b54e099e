import type { CacheControl, FunctionTool, ToolChoice } from '../../protocol/chat.js';
import type { AnthropicTool, AnthropicToolChoice } from './anthropic-messages-api-types.js';

/** The API accepts a cache breakpoint on a tool (tool-schemas.ts), which the canonical type does not name. */
type CacheableTool = FunctionTool & { cache_control?: CacheControl };

/**
 * Anthropic's `tools` and `tool_choice` (pure): "required" is `any`, a named
 * function is `tool`, and `parallel_tool_calls: false` is
 * `disable_parallel_tool_use` on the choice (on `auto` when none was given).
 * A tool without parameters gets the empty object schema Anthropic requires.
 * Nothing is sent without tools: a choice alone means nothing to Anthropic.
 */
export function convertToAnthropicTools(
  tools: readonly CacheableTool[] | undefined,
  choice: ToolChoice | undefined,
  parallelToolCalls: boolean | null | undefined,
): { tools?: AnthropicTool[]; tool_choice?: AnthropicToolChoice } {
  if (!tools?.length) return {};
  const converted = tools.map(
    ({ function: fn, cache_control: cacheControl }): AnthropicTool => ({
      name: fn.name,
      ...(fn.description !== undefined ? { description: fn.description } : {}),
      input_schema: fn.parameters ?? { type: 'object', properties: {} },
      ...(cacheControl ? { cache_control: cacheControl } : {}),
    }),
  );
  const toolChoice = convertToolChoice(choice, parallelToolCalls === false);
  return toolChoice ? { tools: converted, tool_choice: toolChoice } : { tools: converted };
}

function convertToolChoice(choice: ToolChoice | undefined, oneCallAtATime: boolean): AnthropicToolChoice | undefined {
  const parallel = oneCallAtATime ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...parallel };
  if (typeof choice === 'object') return { type: 'tool', name: choice.function.name, ...parallel };
  return choice === 'auto' || oneCallAtATime ? { type: 'auto', ...parallel } : undefined;
}
