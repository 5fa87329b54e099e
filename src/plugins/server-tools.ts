import type { ChatCompletion, ChatMessage, ChatRequest, FunctionTool, ToolCall, Usage } from '../chat/types.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { ActivePlugins, PluginConfig } from './plugin-configs.js';

/**
 * A tool the gateway runs itself when the model calls it during a request
 * (web search, web fetch, fusion…): offered to the model as a function tool
 * while its plugin is in force; the model's calls are executed here and the
 * results sent back until the model answers.
 */
export interface ServerTool {
  /** The function name the model calls; it must not clash with the client's own tools. */
  name: string;
  /** The plugin id that turns the tool on. */
  plugin: string;
  definition(config: PluginConfig): FunctionTool;
  /** The tool message content for one call; a thrown error becomes an error result the model sees. */
  execute(args: unknown, context: { config: PluginConfig; signal: AbortSignal }): Promise<string>;
}

/** The server tools of this gateway, by name. */
export class ServerToolRegistry {
  private readonly tools: readonly ServerTool[];

  constructor(tools: readonly ServerTool[] = []) {
    this.tools = tools;
  }

  /** The tools whose plugin is in force, with that plugin's settings. */
  active(plugins: ActivePlugins): ActiveServerTool[] {
    if (plugins.size === 0) return [];
    return this.tools.flatMap((tool) => {
      const config = plugins.get(tool.plugin);
      return config ? [{ tool, config }] : [];
    });
  }
}

export interface ActiveServerTool {
  tool: ServerTool;
  config: PluginConfig;
}

/** How many rounds of server-tool calls one request may make before the model's last answer is returned as it is. */
export const MAX_SERVER_TOOL_ROUNDS = 4;

const addUsage = (a: Usage | undefined, b: Usage | undefined): Usage | undefined =>
  a && b
    ? { prompt_tokens: a.prompt_tokens + b.prompt_tokens, completion_tokens: a.completion_tokens + b.completion_tokens, total_tokens: a.total_tokens + b.total_tokens }
    : (b ?? a);

async function runCall(call: ToolCall, active: ActiveServerTool, signal: AbortSignal): Promise<{ content: string; ok: boolean }> {
  try {
    const args: unknown = call.function.arguments ? JSON.parse(call.function.arguments) : {};
    return { content: await active.tool.execute(args, { config: active.config, signal }), ok: true };
  } catch (error) {
    return { content: JSON.stringify({ error: error instanceof Error ? error.message : String(error) }), ok: false };
  }
}

/**
 * A non-streaming completion with server tools: the active tools are offered
 * next to the client's; while the model's answer calls only server tools,
 * the gateway runs them, appends the calls and results to the conversation
 * and asks again (at most MAX_SERVER_TOOL_ROUNDS rounds). An answer that
 * calls a client tool goes back to the client as it is. Usage adds up over
 * the rounds, so every round is billed.
 */
export async function completeWithServerTools(
  request: ChatRequest,
  active: readonly ActiveServerTool[],
  complete: (request: ChatRequest) => Promise<ChatCompletion>,
  signal: AbortSignal,
): Promise<{ completion: ChatCompletion; entry: PipelineEntry }> {
  const byName = new Map(active.map((a) => [a.tool.name, a]));
  const messages: ChatMessage[] = [...request.messages];
  const tools = [...(request.tools ?? []), ...active.map((a) => a.tool.definition(a.config))];
  const calls: { name: string; ok: boolean }[] = [];
  let usage: Usage | undefined;
  for (let round = 0; ; round++) {
    const completion = await complete({ ...request, messages, tools });
    usage = addUsage(usage, completion.usage);
    const message = completion.choices[0]?.message;
    const toolCalls = message?.tool_calls ?? [];
    const serverOnly = toolCalls.length > 0 && toolCalls.every((call) => byName.has(call.function.name));
    if (!serverOnly || round === MAX_SERVER_TOOL_ROUNDS) {
      const stoppedBy = !serverOnly ? 'answered' : `stopped after ${MAX_SERVER_TOOL_ROUNDS} rounds`;
      return {
        completion: usage ? { ...completion, usage } : completion,
        entry: {
          type: 'server_tools',
          name: 'server-tools',
          summary: `${calls.length} server tool call${calls.length === 1 ? '' : 's'} in ${round} round${round === 1 ? '' : 's'}; ${stoppedBy}`,
          data: { tools: active.map((a) => a.tool.name), calls, rounds: round },
        },
      };
    }
    messages.push({ role: 'assistant', content: message?.content ?? null, tool_calls: toolCalls });
    for (const call of toolCalls) {
      const result = await runCall(call, byName.get(call.function.name)!, signal);
      calls.push({ name: call.function.name, ok: result.ok });
      messages.push({ role: 'tool', tool_call_id: call.id, content: result.content });
    }
  }
}
