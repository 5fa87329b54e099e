import type { ActivePlugins } from '../../chat/run.js';
import type { ChatMessage, FunctionTool, PluginConfig, ServerToolEntry } from '../../protocol/chat.js';

/** A model call a server tool makes for its request (fusion's panelists and analyst): recorded as a ledger row of its own, linked to the request. */
export interface InnerCall {
  model: string;
  messages: ChatMessage[];
  /** The server tools the inner call may use itself. */
  serverTools?: ServerToolEntry[];
  /** Its ceiling on steps of server-tool calls. */
  maxSteps?: number;
  maxCompletionTokens?: number;
  temperature?: number;
  responseFormat?: 'json_object';
}

export interface InnerResult {
  generationId: string;
  model: string;
  content: string;
  /** USD; already charged to the key by the inner call's own row. */
  cost: number;
}

/** Runs an inner call for the request in flight; a failure throws (the call's row records it). */
export type InnerCalls = (call: InnerCall, signal: AbortSignal) => Promise<InnerResult>;

/** Paid work a tool does itself (a code run), recorded as a ledger row of its own linked to the request. */
export interface ToolCharge {
  /** The ledger's api_type of the work (`code_interpreter`). */
  apiType: string;
  /** What did the work, for the row's model column (`code_interpreter`). */
  model: string;
  cost: number;
  status: 'success' | 'error';
  errorMessage?: string;
  /** What the row keeps of the work beyond its cost (the container, the seconds). */
  details: Record<string, unknown>;
}

/** A hold of the most a tool's work can cost, against the request's key; it ends charged or released. */
export interface ToolHold {
  /** Records the work's row and settles the hold to its cost. */
  charge(charge: ToolCharge): Promise<void>;
  release(): Promise<void>;
}

/** How a tool bills work of its own: the request's key and workspace, and holds against the key's limits. */
export interface ToolBilling {
  organizationId: string;
  workspaceId: string;
  keyHash: string;
  /** Holds `usd` before the work starts (refused as a request is, 402, when the key's limits cannot cover it). */
  hold(usd: number): Promise<ToolHold>;
}

export interface ToolContext {
  config: PluginConfig;
  signal: AbortSignal;
  /** This tool's earlier calls in the request, for limits such as max_uses. */
  calls: number;
  /** The model of the request in flight (the one calling the tool). */
  model: string;
  inner: InnerCalls;
  /** Billing of the tool's own paid work; absent where none may be done (unit tests of other tools). */
  billing?: ToolBilling;
  /** The request's own state of a tool, by the tool's name (the container code_interpreter made for it), kept across its calls. */
  state: Map<string, unknown>;
}

/** A tool's answer: the tool message the model reads, and what it cost beyond the model's own tokens. */
export interface ToolResult {
  content: string;
  /** Searches it made, billed at the endpoint's `web_search` price. */
  webSearches?: number;
  /** USD of its inner calls and own work (already charged by their own rows): part of the request's cost. */
  innerCost?: number;
  /** What the pipeline entry says about the call beyond its name and outcome. */
  data?: Record<string, unknown>;
  /** What the call printed (a code run's stdout and stderr), for an API that shows it: Responses' code_interpreter_call outputs. */
  logs?: string;
}

/**
 * A tool the gateway runs itself when the model calls it during a request
 * (web search, web fetch, fusion): offered to the model as a function tool
 * while its plugin is in force or the request's `tools` list its entry; the
 * model's calls are executed here and the results sent back until the model
 * answers.
 */
export interface ServerTool {
  /** The function name the model calls; it must not clash with the client's own tools. */
  name: string;
  /** The `tools` entry that asks for it. */
  type: ServerToolEntry['type'];
  /** The plugin that turns it on, when one does. */
  plugin?: string;
  /** The plugin whose fields are its defaults (under the entry's parameters); `plugin` when absent. */
  settings?: string;
  definition(config: PluginConfig): FunctionTool;
  /** Refuses settings it could never serve (a 400 before any upstream call); `model` is the model that would call it. */
  check?(config: PluginConfig, model: string): void;
  /** The tool message for one call; a thrown error becomes an error result the model sees. */
  execute(args: unknown, context: ToolContext): Promise<ToolResult>;
}

export interface ActiveServerTool {
  tool: ServerTool;
  config: PluginConfig;
}

/** The server tools of this gateway, by name. */
export class ServerToolRegistry {
  private readonly tools: readonly ServerTool[];

  constructor(tools: readonly ServerTool[] = []) {
    this.tools = tools;
  }

  /**
   * The tools a request has: those whose plugin is in force and those its
   * `tools` entries ask for, each with its settings (the plugin's fields,
   * then the entry's parameters on top).
   */
  active(plugins: ActivePlugins, entries: readonly ServerToolEntry[] = []): ActiveServerTool[] {
    if (plugins.size === 0 && entries.length === 0) return [];
    return this.tools.flatMap((tool) => {
      const fromPlugin = tool.plugin !== undefined ? plugins.get(tool.plugin) : undefined;
      const entry = entries.find((e) => e.type === tool.type);
      if (!fromPlugin && !entry) return [];
      const settings = fromPlugin ?? plugins.get(tool.settings ?? '');
      return [{ tool, config: { ...settings, ...entry?.parameters, id: tool.plugin ?? tool.settings ?? tool.type } }];
    });
  }
}
