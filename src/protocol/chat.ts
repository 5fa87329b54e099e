/**
 * The canonical chat request and response: the public chat-completions shapes
 * (spec 2.1–2.4). Adapters translate them to and from each provider's protocol
 * at the edge; everything between the route and the adapter speaks these.
 */

export interface TextPart {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}
export interface InputAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: string };
}
export interface FilePart {
  type: 'file';
  file: { filename?: string; file_data?: string; file_id?: string };
}
export type ContentPart = TextPart | ImagePart | InputAudioPart | FilePart;

export interface CacheControl {
  type: 'ephemeral';
  ttl?: string;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: 'system' | 'developer';
  content: string | TextPart[];
  name?: string;
}
export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
  name?: string;
}
export interface AssistantMessage {
  role: 'assistant';
  content?: string | TextPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  reasoning?: string | null;
  refusal?: string | null;
  /** The model that wrote it, as the reference's responses name it; never sent upstream. */
  model?: string;
}
export interface ToolMessage {
  role: 'tool';
  content: string | TextPart[];
  tool_call_id: string;
}
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
}

/**
 * A server tool asked for in `tools` (the reference's `{type, parameters}`
 * entries, `service:` instead of `openrouter:`): the gateway runs it, the
 * upstream only sees the function it is offered as.
 */
export interface ServerToolEntry {
  type: 'service:web_search' | 'service:web_fetch' | 'service:fusion' | 'service:code_interpreter';
  parameters?: Record<string, unknown>;
}

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type ReasoningEffort = 'max' | 'xhigh' | 'high' | 'medium' | 'low' | 'minimal' | 'none';

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null } }
  | { type: 'grammar'; grammar: string }
  | { type: 'python' };

/**
 * Search by the provider itself, asked by the web plugin (engine "native"),
 * never sent by clients: OpenAI's `web_search_options` (context size and
 * location), Anthropic's web_search tool (all of it), Gemini's google_search
 * tool (nothing to set). Each adapter sends what its provider takes.
 */
export interface WebSearchOptions {
  search_context_size?: 'low' | 'medium' | 'high';
  user_location?: { type: 'approximate'; city?: string | null; region?: string | null; country?: string | null; timezone?: string | null };
  max_uses?: number;
  allowed_domains?: string[];
  blocked_domains?: string[];
}

/** One item of a request's `plugins` (validated by api/chat/plugin-schemas.ts), or an organization default. */
export type PluginConfig = { id: string; enabled?: boolean } & Record<string, unknown>;

/** A validated chat request (spec 2.1). Routing-only fields stay here; adapters ignore what they do not send. */
export interface ChatRequest {
  messages: ChatMessage[];
  model?: string;
  models?: string[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean } & Record<string, unknown>;
  temperature?: number | null;
  top_p?: number | null;
  top_k?: number | null;
  top_a?: number | null;
  min_p?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  repetition_penalty?: number | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  logit_bias?: Record<string, number> | null;
  seed?: number | null;
  stop?: string | string[] | null;
  tools?: FunctionTool[];
  /** The server-tool entries of `tools`, apart from the client's functions (normalizeChatRequest). */
  server_tools?: ServerToolEntry[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean | null;
  response_format?: ResponseFormat;
  reasoning?: {
    effort?: ReasoningEffort | null;
    summary?: string | null;
    max_tokens?: number | null;
    exclude?: boolean;
    enabled?: boolean;
  };
  reasoning_effort?: ReasoningEffort | null;
  modalities?: ('text' | 'image' | 'audio')[];
  image_config?: Record<string, string | number | unknown[]>;
  metadata?: Record<string, string>;
  user?: string;
  session_id?: string;
  prompt_cache_key?: string | null;
  prompt_cache_options?: Record<string, unknown>;
  cache_control?: CacheControl;
  provider?: Record<string, unknown>;
  plugins?: PluginConfig[];
  prediction?: { type: 'content'; content: string | TextPart[] };
  service_tier?: 'auto' | 'default' | 'fast' | 'flex' | 'priority' | 'scale' | null;
  debug?: { echo_upstream_body?: boolean };
  trace?: Record<string, unknown>;
  route?: 'fallback' | 'sort' | null;
  stop_server_tools_when?: Record<string, unknown>[];
  /** Set by the web plugin for native search; see WebSearchOptions. */
  web_search_options?: WebSearchOptions;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | null;

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number; audio_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number; image_tokens?: number };
  /** USD, added by the gateway from the catalog's pricing. */
  cost?: number;
  /** The server tools the gateway ran for this answer (reference ServerToolUseDetails); searches are billed at `web_search`. */
  server_tool_use_details?: ServerToolUseDetails;
}

export interface ServerToolUseDetails {
  tool_calls_requested: number;
  tool_calls_executed: number;
  web_search_requests: number;
}

/** An annotation of the OpenAI chat message shape, as the reference's web plugin returns it. */
export interface UrlCitation {
  type: 'url_citation';
  url_citation: { url: string; title: string; content?: string; start_index: number; end_index: number };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string | null;
  service_tier?: string | null;
  choices: {
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      tool_calls?: ToolCall[];
      reasoning?: string | null;
      refusal?: string | null;
      annotations?: unknown[];
    };
    finish_reason: FinishReason;
    native_finish_reason?: string | null;
    logprobs?: unknown;
  }[];
  usage?: Usage;
  provider?: string;
}

export interface ChunkToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint?: string;
  service_tier?: string | null;
  choices: {
    index: number;
    delta: {
      role?: 'assistant';
      content?: string | null;
      reasoning?: string | null;
      tool_calls?: ChunkToolCallDelta[];
      refusal?: string | null;
    };
    finish_reason: FinishReason;
    native_finish_reason?: string | null;
    logprobs?: unknown;
  }[];
  usage?: Usage;
  provider?: string;
  error?: { code: number; message: string; metadata?: Record<string, unknown> };
}
