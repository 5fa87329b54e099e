/**
 * What OpenAI-compatible hosts send back, including the variations seen in
 * recorded traffic (see __fixtures__/ beside this file): every field is
 * optional or nullable because some host leaves it out.
 */

/** Mistral's Magistral models send content as parts: `text`, or `thinking` holding text parts. */
export interface OpenAIContentPart {
  type: string;
  text?: string;
  thinking?: { type: string; text?: string }[];
}

export type OpenAIContent = string | OpenAIContentPart[] | null;

export interface OpenAIToolCall {
  /** Mistral leaves out `index` and `type`. */
  index?: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface OpenAIMessage {
  role?: string;
  content?: OpenAIContent;
  /** Groq, vLLM, OpenRouter. */
  reasoning?: string | null;
  /** DeepSeek (and older vLLM). */
  reasoning_content?: string | null;
  tool_calls?: OpenAIToolCall[] | null;
  refusal?: string | null;
  annotations?: unknown[];
}

export interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null; audio_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null; audio_tokens?: number | null } | null;
  /** DeepSeek's own name for cache reads. */
  prompt_cache_hit_tokens?: number;
}

interface OpenAIChoiceBase {
  index?: number;
  finish_reason?: string | null;
  logprobs?: unknown;
}

export interface OpenAIChatResponse {
  id?: string;
  created?: number;
  model?: string;
  system_fingerprint?: string | null;
  service_tier?: string | null;
  choices: (OpenAIChoiceBase & { message?: OpenAIMessage })[];
  usage?: OpenAIUsage | null;
}

export interface OpenAIChatChunk {
  id?: string;
  created?: number;
  model?: string;
  system_fingerprint?: string | null;
  service_tier?: string | null;
  /** Empty in the final usage chunk and in Azure's leading prompt_filter_results chunk. */
  choices?: (OpenAIChoiceBase & { delta?: OpenAIMessage })[];
  usage?: OpenAIUsage | null;
}
