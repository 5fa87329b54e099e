import { sumUsage } from '../../chat/sum-usage.js';
import type { ChatCompletion, ChatMessage, ChatRequest, FunctionTool, ToolCall, Usage } from '../../protocol/chat.js';
import type { PipelineEntry } from '../pipeline-entry.js';
import type { ActiveServerTool, InnerCalls, ToolBilling, ToolContext, ToolResult } from './server-tool.js';
import { firedCondition, type StopCondition } from './stop-conditions.js';

export interface ToolLoopOptions {
  signal: AbortSignal;
  /** The model answering (what the tools see as the caller). */
  model: string;
  inner: InnerCalls;
  /** Billing of the tools' own paid work (code runs), against the request's key. */
  billing?: ToolBilling;
  /** What ends the loop (stopConditions). */
  conditions: readonly StopCondition[];
  /** USD of a usage at the serving endpoint's prices, for max_cost. */
  costOf: (usage: Usage) => number;
}

interface CallRecord {
  name: string;
  ok: boolean;
  error?: string;
  [field: string]: unknown;
}

/** A server tool's call, and once it ran what it answered (an error result carries `error`). */
export interface ServerToolRun {
  call: ToolCall;
  result?: ToolResult & { error?: string };
}

async function runCall(
  call: ToolCall,
  active: ActiveServerTool,
  context: Omit<ToolContext, 'config'>,
): Promise<ToolResult & { error?: string }> {
  try {
    const args: unknown = call.function.arguments ? JSON.parse(call.function.arguments) : {};
    return await active.tool.execute(args, { config: active.config, ...context });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { content: JSON.stringify({ error: message }), error: message };
  }
}

/**
 * The state of one request's server-tool loop, whichever way the model's
 * steps arrive (a JSON answer or a stream): the conversation so far, the
 * calls made, usage over every step, and whether a stop condition fired.
 * Once one fires, the pending calls have run and one last turn is made with
 * tool_choice "none", so the answer ends in words rather than a call.
 */
export class ToolLoop {
  private readonly byName: ReadonlyMap<string, ActiveServerTool>;
  private readonly messages: ChatMessage[];
  private readonly tools: FunctionTool[];
  private readonly calls: CallRecord[] = [];
  private readonly called = new Set<string>();
  private steps = 0;
  private total: Usage | undefined;
  private finishReason: string | null = null;
  private stoppedBy: string | undefined;
  private searches = 0;
  private readonly state = new Map<string, unknown>();
  innerCost = 0;
  /** Every call run so far, in order, with its result (what an API that shows the calls shows). */
  readonly runs: Required<ServerToolRun>[] = [];

  constructor(
    private readonly request: ChatRequest,
    private readonly active: readonly ActiveServerTool[],
    private readonly options: ToolLoopOptions,
  ) {
    this.byName = new Map(active.map((a) => [a.tool.name, a]));
    this.messages = [...request.messages];
    this.tools = [...(request.tools ?? []), ...active.map((a) => a.tool.definition(a.config))];
  }

  /** The request of the next model call. */
  nextRequest(): ChatRequest {
    const { server_tools: _, ...rest } = this.request;
    return {
      ...rest,
      messages: this.messages,
      tools: this.tools,
      ...(this.stoppedBy !== undefined ? { tool_choice: 'none' as const } : {}),
    };
  }

  /** Counts a model call's usage and finish reason. */
  saw(usage: Usage | undefined, finishReason: string | null | undefined): void {
    this.total = sumUsage(this.total, usage);
    this.finishReason = finishReason ?? null;
  }

  /** Whether these calls are a step the gateway runs: only server tools called, and no stop condition fired yet. */
  takesStep(toolCalls: readonly ToolCall[]): boolean {
    return this.stoppedBy === undefined && toolCalls.length > 0 && toolCalls.every((call) => this.byName.has(call.function.name));
  }

  /** Runs a step's calls, adds them and their results to the conversation, and checks the stop conditions. */
  async step(content: string | null, toolCalls: ToolCall[]): Promise<void> {
    this.startStep(content, toolCalls);
    for (const call of toolCalls) await this.run(call);
    this.endStep();
  }

  /** Opens a step: the model's turn that called the tools, in the conversation. */
  startStep(content: string | null, toolCalls: ToolCall[]): void {
    this.messages.push({ role: 'assistant', content, tool_calls: toolCalls });
  }

  /** Runs one call of the open step (in the order called), adding its result to the conversation. */
  async run(call: ToolCall): Promise<Required<ServerToolRun>> {
    const name = call.function.name;
    const earlier = this.calls.filter((c) => c.name === name).length;
    const result = await runCall(call, this.byName.get(name)!, {
      signal: this.options.signal,
      calls: earlier,
      model: this.options.model,
      inner: this.options.inner,
      ...(this.options.billing ? { billing: this.options.billing } : {}),
      state: this.state,
    });
    this.called.add(name);
    this.searches += result.webSearches ?? 0;
    this.innerCost += result.innerCost ?? 0;
    this.calls.push({
      name,
      ok: result.error === undefined,
      ...(result.error !== undefined ? { error: result.error } : {}),
      ...result.data,
    });
    this.messages.push({ role: 'tool', tool_call_id: call.id, content: result.content });
    const ran = { call, result };
    this.runs.push(ran);
    return ran;
  }

  /** Closes a step once its calls ran: counts it and checks the stop conditions. */
  endStep(): void {
    this.steps++;
    const usage = this.usage();
    this.stoppedBy = firedCondition(this.options.conditions, {
      steps: this.steps,
      called: this.called,
      tokens: usage?.total_tokens ?? 0,
      cost: (usage ? this.options.costOf(usage) : 0) + this.innerCost,
      finishReason: this.finishReason,
    });
  }

  /** Usage over every model call, with what the server tools did (searches are billed from it). */
  usage(): Usage | undefined {
    if (this.calls.length === 0) return this.total;
    const details = {
      tool_calls_requested: this.calls.length,
      tool_calls_executed: this.calls.filter((c) => c.ok).length,
      web_search_requests: this.searches,
    };
    return { ...(this.total ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }), server_tool_use_details: details };
  }

  /** The pipeline entry: the tools offered, each call, and why the loop ended. */
  entry(): PipelineEntry {
    const ended = this.stoppedBy !== undefined ? `stopped by ${this.stoppedBy}` : 'answered';
    const n = this.calls.length;
    return {
      type: 'server_tools',
      name: 'server-tools',
      summary: `${n} server tool call${n === 1 ? '' : 's'} in ${this.steps} round${this.steps === 1 ? '' : 's'}; ${ended}`,
      data: {
        tools: this.active.map((a) => a.tool.name),
        calls: this.calls,
        rounds: this.steps,
        ...(this.stoppedBy !== undefined ? { stopped_by: this.stoppedBy } : {}),
        ...(this.innerCost > 0 ? { inner_cost: this.innerCost } : {}),
      },
    };
  }
}

/** What a request with server tools came to: the answer (usage over every step), its entry, and its inner calls' cost. */
export interface ToolLoopResult<T> {
  result: T;
  entry: PipelineEntry;
  innerCost: number;
  /** The server tools' calls, with their results. */
  runs: readonly Required<ServerToolRun>[];
}

/**
 * A non-streaming completion with server tools: while the model's answer
 * calls only server tools, the gateway runs them and asks again, until the
 * model answers, calls a client tool (that answer goes back to the client
 * as it is) or a stop condition ends the loop.
 */
export async function completeWithServerTools(
  request: ChatRequest,
  active: readonly ActiveServerTool[],
  complete: (request: ChatRequest) => Promise<ChatCompletion>,
  options: ToolLoopOptions,
): Promise<ToolLoopResult<ChatCompletion>> {
  const loop = new ToolLoop(request, active, options);
  for (;;) {
    const completion = await complete(loop.nextRequest());
    const choice = completion.choices[0];
    loop.saw(completion.usage, choice?.finish_reason);
    const toolCalls = choice?.message.tool_calls ?? [];
    if (!loop.takesStep(toolCalls)) {
      const usage = loop.usage();
      return { result: usage ? { ...completion, usage } : completion, entry: loop.entry(), innerCost: loop.innerCost, runs: loop.runs };
    }
    await loop.step(choice?.message.content ?? null, toolCalls);
  }
}
