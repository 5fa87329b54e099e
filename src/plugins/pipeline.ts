import type { Catalog } from '../catalog/types.js';
import type { ActivePlugins, ChatRun, RoutedRequest, Run } from '../chat/run.js';
import type { RunObserver } from '../chat/run-observer.js';
import type { FileReader } from '../files/read-file-for-model.js';
import type { GuardrailCache } from '../guardrails/guardrail-cache.js';
import { Errors } from '../http/errors.js';
import type { ChatRequest, PluginConfig } from '../protocol/chat.js';
import type { DecisionsRequest } from '../protocol/decisions.js';
import type { EmbeddingsRequest } from '../protocol/embeddings.js';
import type { ImageRequest } from '../protocol/images.js';
import type { RerankRequest } from '../protocol/rerank.js';
import type { SpeechRequest } from '../protocol/speech.js';
import type { TranscriptionRequest } from '../protocol/transcription.js';
import type { Clock } from '../util/clock.js';
import { contextCompressionStage } from './context-compression/context-compression-stage.js';
import { fileParserStage, hasFileParts } from './file-parser/file-parser-stage.js';
import { fileReferenceStage } from './file-parser/file-reference-stage.js';
import type { GuardedRequestView } from './guardrail-stage.js';
import { guardrailStage } from './guardrail-stage.js';
import { type ModerationProvider, moderationStage } from './moderation-stage.js';
import { activePlugins } from './plugin-configs.js';
import type { PluginServices } from './plugin-services.js';
import { type RequestStage, runRequestStages } from './request-stage.js';
import { CHAT_VIEW, DECISIONS_VIEW, EMBEDDINGS_VIEW, IMAGES_VIEW, RERANK_VIEW, SPEECH_VIEW, TRANSCRIPTION_VIEW } from './request-views.js';
import { responseHealingStage } from './response-healing.js';
import { type ResponseStage, runResponseStages } from './response-stage.js';
import type { ServerToolRegistry } from './server-tools/server-tool.js';
import { webCitationsStage } from './web/web-citations-stage.js';
import { webSearchStage } from './web/web-search-stage.js';

export interface PipelineOptions {
  guardrails: GuardrailCache;
  /** Absent when no moderation provider is configured: the moderation plugin is then a 400. */
  moderation?: ModerationProvider | undefined;
  serverTools: ServerToolRegistry;
  clock: Clock;
  /** The organization's plugin defaults, under the request's own (see activePlugins); none unless given. */
  pluginDefaults?: (organizationId: string) => readonly PluginConfig[];
  /** What the file-parser, web and context-compression stages use. */
  plugins: PluginServices & { catalog: Catalog };
  /** Runs each stage as a step of its request (a span of its trace); given only when traces are kept. */
  step?: RunObserver['step'];
  /** Reads the uploaded files a request names by id (the files API). */
  files: FileReader;
}

/**
 * The request pipeline around the attempts: pre-request stages (file-parser,
 * guardrails, moderation, web search, context-compression) after planning, the server tools the model may call, and
 * post-response stages (response-healing, web citations). Each stage reports into
 * `routing.pipeline`, which service_metadata and the ledger show.
 */
export interface Pipeline {
  prepareChat(run: ChatRun, signal: AbortSignal): Promise<ChatRun>;
  prepareRerank(run: Run<RerankRequest>, signal: AbortSignal): Promise<Run<RerankRequest>>;
  prepareDecisions(run: Run<DecisionsRequest>, signal: AbortSignal): Promise<Run<DecisionsRequest>>;
  prepareEmbeddings(run: Run<EmbeddingsRequest>, signal: AbortSignal): Promise<Run<EmbeddingsRequest>>;
  prepareImages(run: Run<ImageRequest>, signal: AbortSignal): Promise<Run<ImageRequest>>;
  prepareSpeech(run: Run<SpeechRequest>, signal: AbortSignal): Promise<Run<SpeechRequest>>;
  prepareTranscription(run: Run<TranscriptionRequest>, signal: AbortSignal): Promise<Run<TranscriptionRequest>>;
  finishChat: (run: ChatRun, completion: Parameters<typeof runResponseStages>[2]) => ReturnType<typeof runResponseStages>;
  serverTools: ServerToolRegistry;
}

const NO_DEFAULTS = (): readonly PluginConfig[] => [];

/** What a streaming request gives up, said in the pipeline rather than silently. */
const streamingLimits: RequestStage<ChatRequest> = {
  name: 'streaming-limits',
  applies: ({ run, plugins }) => run.request.stream === true && plugins.has('response-healing'),
  run: () => ({
    entries: [
      {
        type: 'plugin',
        name: 'response-healing',
        summary: 'Skipped: response-healing repairs non-streaming responses only',
        data: { action: 'skipped', reason: 'streaming' },
      },
    ],
  }),
};

/**
 * The request's server tools, checked before any upstream call: a client
 * function of the same name is a 400, and so are settings a tool could
 * never serve (fusion's models).
 */
function checkServerTools(serverTools: ServerToolRegistry, run: ChatRun, plugins: ActivePlugins): void {
  const active = serverTools.active(plugins, run.request.server_tools);
  const clientTools = new Set((run.request.tools ?? []).map((t) => t.function.name));
  const clash = active.find((a) => clientTools.has(a.tool.name));
  if (clash) {
    const owner = clash.tool.plugin !== undefined ? `${clash.tool.plugin} plugin's` : clash.tool.type;
    throw Errors.invalidRequest(`tools: the function name ${clash.tool.name} is the ${owner} server tool; rename the client tool`);
  }
  const model = run.attempts[0]?.modelId ?? run.request.model ?? '';
  for (const { tool, config } of active) tool.check?.(config, model);
}

/** A stage whose work runs as a step of its request. */
function asStep<R extends RoutedRequest>(stage: RequestStage<R>, step: RunObserver['step']): RequestStage<R> {
  return { ...stage, run: (context) => step(`plugin ${stage.name}`, () => stage.run(context)) };
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const pluginDefaults = options.pluginDefaults ?? NO_DEFAULTS;
  const { step } = options;
  const observed = <R extends RoutedRequest>(stage: RequestStage<R>): RequestStage<R> => (step ? asStep(stage, step) : stage);
  // Uploaded files are read, and PDFs become text, first, so that guardrails and moderation read them; compression comes last, over everything added.
  const chatStages: RequestStage<ChatRequest>[] = [
    fileReferenceStage(options.files),
    fileParserStage(options.plugins),
    guardrailStage(CHAT_VIEW),
    moderationStage(CHAT_VIEW.texts, options.moderation, options.clock),
    webSearchStage(options.plugins, options.clock),
    contextCompressionStage(options.plugins.tokens),
    streamingLimits,
  ].map(observed);
  /** The APIs without plugins (rerank, decisions, embeddings, images, speech, transcription) run only the key's guardrails. */
  const guardedOnly = <R extends RoutedRequest>(view: GuardedRequestView<R>) => {
    const stages: RequestStage<R>[] = [observed(guardrailStage(view))];
    return async (run: Run<R>, signal: AbortSignal): Promise<Run<R>> => {
      const guardrails = (await options.guardrails.get(run.key.organization_id)).forKey(run.key);
      if (guardrails.length === 0) return run;
      return runRequestStages(stages, { run, plugins: new Map(), guardrails, signal });
    };
  };
  const responseStages: ResponseStage[] = [responseHealingStage, webCitationsStage].map((stage) =>
    step ? { ...stage, run: (run, completion) => step(`plugin ${stage.name}`, () => stage.run(run, completion)) } : stage,
  );

  return {
    serverTools: options.serverTools,
    async prepareChat(run, signal) {
      const plugins = activePlugins(pluginDefaults(run.key.organization_id), run.request.plugins);
      const guardrails = (await options.guardrails.get(run.key.organization_id)).forKey(run.key);
      // The hot path: nothing asked for, nothing assigned, no file to parse, nothing to do.
      if (plugins.size === 0 && guardrails.length === 0 && !hasFileParts(run.request) && !run.request.server_tools) return run;
      checkServerTools(options.serverTools, run, plugins);
      return { ...(await runRequestStages(chatStages, { run, plugins, guardrails, signal })), plugins };
    },
    prepareRerank: guardedOnly(RERANK_VIEW),
    prepareDecisions: guardedOnly(DECISIONS_VIEW),
    prepareEmbeddings: guardedOnly(EMBEDDINGS_VIEW),
    prepareImages: guardedOnly(IMAGES_VIEW),
    prepareSpeech: guardedOnly(SPEECH_VIEW),
    prepareTranscription: guardedOnly(TRANSCRIPTION_VIEW),
    finishChat: (run, completion) => runResponseStages(responseStages, run, completion),
  };
}
