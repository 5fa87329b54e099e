/**
 * A request on its way through the gateway, whatever its API: what routes it,
 * who asked, the plan that serves it and, for chat, what the pipeline added.
 * The pipeline's stages read these types; this file imports nothing of plugins/.
 */
import type { Reservation } from '../accounting/reservations.js';
import type { ModelTask } from '../catalog/model-task.js';
import type { Endpoint } from '../catalog/types.js';
import type { ChatMessage, ChatRequest, PluginConfig } from '../protocol/chat.js';
import type { MessagesRequest } from '../protocol/messages.js';
import type { SearchResult } from '../protocol/search-engine.js';
import type { Attempt } from '../routing/plan-attempts.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { RoutingFacts } from './service-metadata.js';

/** The request fields a run reads whatever its API: what routes it and whom it serves. */
export interface RoutedRequest {
  model?: string;
  models?: readonly string[];
  session_id?: string;
  user?: string;
  /** Provider preferences (reference ProviderPreferences), already validated. */
  provider?: Record<string, unknown> | null;
}

/** One request on its way: who asked, what, and the plan to serve it. */
export interface Run<R extends RoutedRequest> {
  id: string;
  key: ApiKeyRow;
  request: R;
  task: ModelTask;
  requestId: string;
  origin: string | null;
  /** The X-Title the request stated, for the datasets' app rankings. */
  appTitle?: string | null;
  userAgent: string | null;
  endUserId: string;
  attempts: Attempt<Endpoint>[];
  routing: Omit<RoutingFacts, 'attempts'>;
  startedAt: number;
  wantsMetadata: boolean;
  /** The conversation's prompt-cache key, when a model of the plan can stick to a cache holder. */
  conversation?: string;
  /** Set on an inner call (a fusion panelist or analyst): the generation it was made for. */
  parentGenerationId?: string;
  /** What the run holds of its key's limits until settleRun charges its cost (see reserve-chat-run.ts, rerank's route). */
  reservation?: Reservation;
  /** The client's messages, when its organization stores content: written with the ledger row, with the answer (generation-content.ts). */
  storedInput?: readonly ChatMessage[];
  /** Called once the run's ledger row is written (a client's request is then not recorded as a refusal too). */
  recorded?: () => void;
}

/** The plugins in force for one request, by id. */
export type ActivePlugins = ReadonlyMap<string, PluginConfig>;

/**
 * A chat run; `plugins` are the plugins in force once the pipeline has
 * prepared it, `citations` the web plugin's search results once it searched
 * (`webSearches` the searches it made, billed at the endpoint's web_search
 * price), `innerCost` what inner calls made before the attempts (fusion's
 * panel and analyst) cost: their own rows charged it, the response's
 * usage.cost includes it.
 */
export type ChatRun = Run<ChatRequest> & {
  plugins?: ActivePlugins;
  citations?: readonly SearchResult[];
  webSearches?: number;
  innerCost?: number;
  native?: NativeMessagesRequest;
};

/**
 * A run of POST /messages: the client's own Messages body, which an
 * endpoint that speaks Anthropic's API is sent untranslated (native-messages.ts).
 */
export interface NativeMessagesRequest {
  body: MessagesRequest;
  /** The client's anthropic-version and anthropic-beta headers, passed on with the body. */
  anthropicVersion?: string;
  anthropicBeta?: string;
  /** The canonical request the body reads as: once the pipeline changed the run's (search results, a redaction), the change goes translated. */
  reads: ChatRequest;
}

export interface RunContext {
  requestId: string;
  origin: string | null;
  appTitle?: string | null;
  userAgent: string | null;
  wantsMetadata: boolean;
  storedInput?: readonly ChatMessage[];
  recorded?: () => void;
}
