/**
 * OpenAI's Responses API (POST /responses), the shapes the gateway reads and
 * writes: the request's items and settings, the Response object, its output
 * items and usage, and the typed stream events. The request's own gateway
 * fields (models, provider, plugins…) are the chat request's; only what the
 * Responses API names differently is here. Field names follow OpenAI's
 * documented API (and the `openai` SDK's types).
 */

export interface ResponsesInputText {
  type: 'input_text';
  text: string;
}
export interface ResponsesInputImage {
  type: 'input_image';
  image_url?: string | null;
  file_id?: string | null;
  detail?: 'auto' | 'low' | 'high';
}
export interface ResponsesInputFile {
  type: 'input_file';
  filename?: string;
  file_data?: string;
  file_id?: string | null;
  file_url?: string;
}
export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs?: unknown[];
}
export interface ResponsesRefusal {
  type: 'refusal';
  refusal: string;
}
export type ResponsesInputContent = ResponsesInputText | ResponsesInputImage | ResponsesInputFile;

/** A message of the input: the client's, or an earlier answer's (assistant, with output_text and refusal parts). */
export interface ResponsesMessageItem {
  type?: 'message';
  id?: string;
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | (ResponsesInputContent | ResponsesOutputText | ResponsesRefusal)[];
  status?: string;
}
export interface ResponsesFunctionCallItem {
  type: 'function_call';
  id?: string;
  call_id: string;
  name: string;
  arguments: string;
  status?: string;
}
export interface ResponsesFunctionCallOutputItem {
  type: 'function_call_output';
  id?: string;
  call_id: string;
  output: string | ResponsesInputContent[];
  status?: string;
}
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  content?: { type: 'reasoning_text'; text: string }[] | null;
  encrypted_content?: string | null;
  status?: string;
}
export type ResponsesInputItem =
  | ResponsesMessageItem
  | ResponsesFunctionCallItem
  | ResponsesFunctionCallOutputItem
  | ResponsesReasoningItem
  | ResponsesCodeInterpreterCall;

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

export type ResponsesToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; description?: string; strict?: boolean | null };

/** The Responses fields of a request (the gateway's routing fields come beside them, as in chat). */
export interface ResponsesRequest {
  model?: string;
  input: string | ResponsesInputItem[];
  instructions?: string | null;
  tools?: ResponsesFunctionTool[];
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean | null;
  text?: { format?: ResponsesTextFormat; verbosity?: string | null } | null;
  reasoning?: { effort?: string | null; summary?: string | null; max_tokens?: number | null; enabled?: boolean; exclude?: boolean } | null;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  top_logprobs?: number | null;
  metadata?: Record<string, string> | null;
  user?: string;
  stream?: boolean;
  store?: boolean | null;
  previous_response_id?: string | null;
  service_tier?: string | null;
  prompt_cache_key?: string | null;
  prompt_cache_options?: { mode?: 'implicit' | 'explicit'; ttl?: string | null } | null;
  prompt_cache_retention?: string | null;
  include?: string[] | null;
  truncation?: 'auto' | 'disabled' | null;
}

export interface ResponsesMessageOutput {
  type: 'message';
  id: string;
  role: 'assistant';
  status: 'in_progress' | 'completed' | 'incomplete';
  content: (ResponsesOutputText | ResponsesRefusal)[];
}
/** A code run of the gateway's code_interpreter tool (OpenAI's ResponseCodeInterpreterToolCall). */
export interface ResponsesCodeInterpreterCall {
  type: 'code_interpreter_call';
  id: string;
  status: 'in_progress' | 'completed' | 'incomplete' | 'interpreting' | 'failed';
  code: string | null;
  /** Absent while the call's container is not known yet (a new one is made at the request's first run). */
  container_id?: string;
  /** What it printed, when the request's `include` asks for `code_interpreter_call.outputs`; else null. */
  outputs: { type: 'logs'; logs: string }[] | null;
}
export type ResponsesOutputItem =
  | ResponsesMessageOutput
  | (ResponsesFunctionCallItem & { id: string; status: string })
  | ResponsesReasoningItem
  | ResponsesCodeInterpreterCall;

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
  /** USD, added by the gateway (the reference's Usage.cost). */
  cost?: number;
}

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'cancelled' | 'queued' | 'incomplete';

/** The Response object (OpenAI's `Response`; the reference's OpenResponsesResult). */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  completed_at?: number | null;
  status: ResponseStatus;
  model: string;
  output: ResponsesOutputItem[];
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  metadata: Record<string, string> | null;
  parallel_tool_calls: boolean;
  temperature: number | null;
  top_p: number | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  tool_choice: ResponsesToolChoice;
  tools: ResponsesFunctionTool[];
  text: { format: ResponsesTextFormat };
  reasoning: { effort: string | null; summary: string | null } | null;
  service_tier?: string | null;
  store?: boolean;
  previous_response_id?: string | null;
  /** Null or absent until the response is done. */
  usage?: ResponsesUsage | null;
  [extra: string]: unknown;
}

/**
 * One event of a streamed response. Every event has its `type` and
 * `sequence_number`; the rest depends on the type (OpenAI's
 * ResponseStreamEvent union), so it is kept open here.
 */
export interface ResponseStreamEvent {
  type: string;
  sequence_number: number;
  response?: ResponseObject;
  [field: string]: unknown;
}

/** The events that end a response: the last one the upstream sends. */
export const TERMINAL_RESPONSE_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);
