/**
 * Anthropic's Messages API as the gateway's `POST /messages` speaks it to its
 * clients (the answers and events it sends, typed as published), and the
 * request read leniently: blocks of types added later pass through to an
 * Anthropic endpoint untouched.
 */
import type { CacheControl } from './chat.js';

export type MessagesSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type?: string; data: string };

export type MessagesInputBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl | null }
  | { type: 'image'; source: MessagesSource; cache_control?: CacheControl | null }
  | { type: 'document'; source: MessagesSource; title?: string | null; cache_control?: CacheControl | null }
  | { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl | null }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content?: string | MessagesInputBlock[];
      is_error?: boolean;
      cache_control?: CacheControl | null;
    }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

export interface MessagesInputMessage {
  role: 'user' | 'assistant';
  content: string | MessagesInputBlock[];
}

export interface MessagesTool {
  /** A client tool has no type, or `custom`; Anthropic's own tools name a versioned type (web_search_20250305…). */
  type?: string;
  name: string;
  description?: string;
  input_schema?: Record<string, unknown>;
  cache_control?: CacheControl | null;
  [field: string]: unknown;
}

export type MessagesToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type MessagesThinking = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' } | { type: 'adaptive' };

/** The Messages body a client sends, with the gateway's routing fields the reference adds (models, provider, plugins…). */
export interface MessagesRequest {
  model?: string;
  max_tokens: number;
  messages: MessagesInputMessage[];
  system?: string | { type: 'text'; text: string; cache_control?: CacheControl | null }[];
  stop_sequences?: string[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  tools?: MessagesTool[];
  tool_choice?: MessagesToolChoice;
  thinking?: MessagesThinking;
  metadata?: { user_id?: string | null };
  service_tier?: string;
  /** Effort, and structured outputs: the text is JSON valid against the schema. */
  output_config?: {
    effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null;
    format?: { type: 'json_schema'; schema: Record<string, unknown> } | null;
  };
  [field: string]: unknown;
}

export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal';

export type MessagesOutputBlock =
  | { type: 'text'; text: string; citations?: unknown[] | null }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
  service_tier?: string | null;
  /** USD, the gateway's: what the answer was billed. */
  cost?: number;
}

/** A Message, the non-streaming answer. */
export interface MessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessagesOutputBlock[];
  stop_reason: MessagesStopReason | null;
  stop_sequence: string | null;
  usage: MessagesUsage;
  [field: string]: unknown;
}

/** One event of a stream, sent as `event: <type>` with the event as its data. */
export interface MessagesStreamEvent {
  type: string;
  [field: string]: unknown;
}

/** Anthropic's error types, the `error.type` of its error body and of a stream's `error` event. */
export type MessagesErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'timeout_error'
  | 'api_error'
  | 'overloaded_error';

export interface MessagesErrorBody {
  type: 'error';
  error: { type: MessagesErrorType; message: string };
  request_id: string | null;
}
