import type { ChatCompletionChunk, ChunkToolCallDelta } from '../../protocol/chat.js';
import { convertOpenAIMessageText } from './convert-openai-message-text.js';
import { convertOpenAIUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import type { OpenAIChatChunk, OpenAIMessage, OpenAIToolCall } from './openai-chat-api-types.js';

type ChunkChoice = ChatCompletionChunk['choices'][number];

/**
 * The canonical chunk for one OpenAI-compatible stream chunk, or undefined
 * for a chunk that carries nothing for the client (Azure's leading
 * prompt_filter_results chunk has no choices, id or model). Host extras
 * (obfuscation, x_groq, content_filter_results) are left out, and so is a
 * null system_fingerprint (the chunk shape has no null for it).
 */
export function convertOpenAIChatChunk(chunk: OpenAIChatChunk): ChatCompletionChunk | undefined {
  const choices = chunk.choices ?? [];
  if (choices.length === 0 && !chunk.usage) return undefined;
  const converted: ChatCompletionChunk = {
    id: chunk.id ?? '',
    object: 'chat.completion.chunk',
    created: chunk.created ?? 0,
    model: chunk.model ?? '',
    choices: choices.map((choice, position): ChunkChoice => {
      const convertedChoice: ChunkChoice = {
        index: choice.index ?? position,
        delta: convertDelta(choice.delta ?? {}),
        finish_reason: mapOpenAIFinishReason(choice.finish_reason),
      };
      if (choice.finish_reason != null) convertedChoice.native_finish_reason = choice.finish_reason;
      if (choice.logprobs != null) convertedChoice.logprobs = choice.logprobs;
      return convertedChoice;
    }),
  };
  if (chunk.system_fingerprint != null) converted.system_fingerprint = chunk.system_fingerprint;
  if (chunk.service_tier !== undefined) converted.service_tier = chunk.service_tier;
  if (chunk.usage) converted.usage = convertOpenAIUsage(chunk.usage);
  return converted;
}

/** Only the fields that carry something: nulls are left out. */
function convertDelta(delta: OpenAIMessage): ChunkChoice['delta'] {
  const { content, reasoning } = convertOpenAIMessageText(delta);
  const converted: ChunkChoice['delta'] = {};
  if (delta.role === 'assistant') converted.role = 'assistant';
  if (content !== undefined) converted.content = content;
  if (reasoning !== undefined) converted.reasoning = reasoning;
  if (delta.tool_calls?.length) converted.tool_calls = delta.tool_calls.map(convertToolCallDelta);
  if (delta.refusal != null) converted.refusal = delta.refusal;
  return converted;
}

/** Mistral sends whole calls without `index` and `type`: their position is their index. */
function convertToolCallDelta(call: OpenAIToolCall, position: number): ChunkToolCallDelta {
  const converted: ChunkToolCallDelta = { index: call.index ?? position };
  if (call.id !== undefined) {
    converted.id = call.id;
    converted.type = 'function';
  }
  if (call.function) {
    const { name, arguments: args } = call.function;
    converted.function = {};
    if (name !== undefined) converted.function.name = name;
    if (args !== undefined) converted.function.arguments = args;
  }
  return converted;
}
