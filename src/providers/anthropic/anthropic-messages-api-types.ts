/**
 * Anthropic's Messages API (POST /v1/messages), as published: the request
 * we send, typed exactly; the answers we read, typed leniently (every field
 * optional or nullable, unknown block and event types allowed) because the
 * API adds fields and types over time.
 */
import type { CacheControl } from '../../protocol/chat.js';

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

export type AnthropicSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicSource;
  cache_control?: CacheControl;
}

export interface AnthropicDocumentBlock {
  type: 'document';
  source: AnthropicSource;
  title?: string;
  cache_control?: CacheControl;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | AnthropicTextBlock[];
  cache_control?: CacheControl;
}

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

/** Anthropic's own web search, run on its side (server tool `web_search_20250305`). */
export interface AnthropicWebSearchTool {
  type: 'web_search_20250305';
  name: 'web_search';
  max_uses?: number;
  allowed_domains?: string[];
  blocked_domains?: string[];
  user_location?: { type: 'approximate'; city?: string; region?: string; country?: string; timezone?: string };
  cache_control?: CacheControl;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface AnthropicMessagesRequest {
  model: string;
  max_tokens: number;
  system?: AnthropicTextBlock[];
  messages: AnthropicMessage[];
  tools?: (AnthropicTool | AnthropicWebSearchTool)[];
  tool_choice?: AnthropicToolChoice;
  thinking?: { type: 'enabled'; budget_tokens: number };
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  metadata?: { user_id: string };
  service_tier?: 'auto' | 'standard_only';
  /** Structured outputs: the answer's text is JSON valid against the schema. */
  output_config?: { format: { type: 'json_schema'; schema: Record<string, unknown> } };
  stream?: true;
}

export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
  service_tier?: string | null;
}

/** A content block of an answer: text, thinking, tool_use, or a type we do not read (server tools, redacted thinking). */
export interface AnthropicResponseBlock {
  type: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  input?: unknown;
  /** On text blocks: the sources of the text (web_search_result_location for native search). */
  citations?: AnthropicCitation[] | null;
}

export interface AnthropicCitation {
  type: string;
  url?: string;
  title?: string | null;
  cited_text?: string;
}

export interface AnthropicMessagesResponse {
  id?: string;
  type?: string;
  model?: string;
  content: AnthropicResponseBlock[];
  stop_reason?: string | null;
  usage?: AnthropicUsage | null;
}

/** One event of a stream; `type` says which of the fields it carries. */
export interface AnthropicStreamEvent {
  type: string;
  /** message_start */
  message?: Partial<AnthropicMessagesResponse>;
  /** content_block_start, content_block_delta, content_block_stop */
  index?: number;
  content_block?: AnthropicResponseBlock;
  /** content_block_delta (text_delta, thinking_delta, input_json_delta, signature_delta) and message_delta (stop_reason). */
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null };
  /** message_delta: the counts so far, cumulative. */
  usage?: AnthropicUsage | null;
  /** error */
  error?: { type?: string; message?: string };
}
