import type { ChatRun, Run } from '../chat/chat-run.js';
import type { ChatRequest } from '../chat/types.js';
import type { GuardrailCache } from '../guardrails/guardrail-cache.js';
import { Errors } from '../http/errors.js';
import type { RerankRequest } from '../rerank/types.js';
import type { Clock } from '../util/clock.js';
import { guardrailStage } from './guardrail-stage.js';
import { moderationStage, type ModerationProvider } from './moderation-stage.js';
import type { PipelineEntry } from './pipeline-entry.js';
import { activePlugins, type PluginConfig } from './plugin-configs.js';
import { CHAT_VIEW, RERANK_VIEW } from './request-views.js';
import { runRequestStages, type RequestStage } from './request-stage.js';
import { responseHealingStage } from './response-healing.js';
import { runResponseStages, type ResponseStage } from './response-stage.js';
import type { ServerToolRegistry } from './server-tools.js';

export interface PipelineOptions {
  guardrails: GuardrailCache;
  /** Absent when no moderation provider is configured: the moderation plugin is then a 400. */
  moderation?: ModerationProvider | undefined;
  serverTools: ServerToolRegistry;
  clock: Clock;
  /** The organization's plugin defaults, under the request's own (see activePlugins); none unless given. */
  pluginDefaults?: (organizationId: string) => readonly PluginConfig[];
}

/**
 * The request pipeline around the attempts: pre-request stages (guardrails,
 * then moderation) after planning, the server tools the model may call, and
 * post-response stages (response-healing). Each stage reports into
 * `routing.pipeline`, which service_metadata and the ledger show.
 */
export interface Pipeline {
  prepareChat(run: ChatRun, signal: AbortSignal): Promise<ChatRun>;
  prepareRerank(run: Run<RerankRequest>, signal: AbortSignal): Promise<Run<RerankRequest>>;
  finishChat: (run: ChatRun, completion: Parameters<typeof runResponseStages>[2]) => ReturnType<typeof runResponseStages>;
  serverTools: ServerToolRegistry;
}

const NO_DEFAULTS = (): readonly PluginConfig[] => [];

/** What a streaming request gives up, said in the pipeline rather than silently. */
function streamingLimits(serverTools: ServerToolRegistry): RequestStage<ChatRequest> {
  const skipped = (name: string, summary: string): PipelineEntry => ({ type: 'plugin', name, summary, data: { action: 'skipped', reason: 'streaming' } });
  return {
    name: 'streaming-limits',
    applies: ({ run, plugins }) => run.request.stream === true && (plugins.has('response-healing') || serverTools.active(plugins).length > 0),
    run: ({ plugins }) => ({
      entries: [
        ...(plugins.has('response-healing') ? [skipped('response-healing', 'Skipped: response-healing repairs non-streaming responses only')] : []),
        ...serverTools.active(plugins).map((a) => skipped(a.tool.plugin, `Skipped: server tool ${a.tool.name} runs on non-streaming requests only`)),
      ],
    }),
  };
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const pluginDefaults = options.pluginDefaults ?? NO_DEFAULTS;
  const chatStages: RequestStage<ChatRequest>[] = [
    guardrailStage(CHAT_VIEW),
    moderationStage(CHAT_VIEW.texts, options.moderation, options.clock),
    streamingLimits(options.serverTools),
  ];
  const rerankStages: RequestStage<RerankRequest>[] = [guardrailStage(RERANK_VIEW)];
  const responseStages: ResponseStage[] = [responseHealingStage];

  return {
    serverTools: options.serverTools,
    async prepareChat(run, signal) {
      const plugins = activePlugins(pluginDefaults(run.key.organization_id), run.request.plugins);
      const guardrails = (await options.guardrails.get(run.key.organization_id)).forKey(run.key);
      // The hot path: nothing asked for, nothing assigned, nothing to do.
      if (plugins.size === 0 && guardrails.length === 0) return run;
      const clientTools = new Set((run.request.tools ?? []).map((t) => t.function.name));
      const clash = options.serverTools.active(plugins).find((a) => clientTools.has(a.tool.name));
      if (clash) throw Errors.invalidRequest(`tools: the function name ${clash.tool.name} is the ${clash.tool.plugin} plugin's server tool; rename the client tool`);
      return { ...(await runRequestStages(chatStages, { run, plugins, guardrails, signal })), plugins };
    },
    async prepareRerank(run, signal) {
      const guardrails = (await options.guardrails.get(run.key.organization_id)).forKey(run.key);
      if (guardrails.length === 0) return run;
      return runRequestStages(rerankStages, { run, plugins: new Map(), guardrails, signal });
    },
    finishChat: (run, completion) => runResponseStages(responseStages, run, completion),
  };
}
