import type { ChatCompletion } from '../../protocol/chat.js';
import { convertOpenAIMessageText } from './convert-openai-message-text.js';
import { convertOpenAIUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import type { OpenAIChatResponse, OpenAIMessage } from './openai-chat-api-types.js';

type Choice = ChatCompletion['choices'][number];

/** The canonical response for an OpenAI-compatible non-streaming one. */
export function convertOpenAIChatResponse(response: OpenAIChatResponse): ChatCompletion {
  const completion: ChatCompletion = {
    id: response.id ?? '',
    object: 'chat.completion',
    created: response.created ?? 0,
    model: response.model ?? '',
    system_fingerprint: response.system_fingerprint ?? null,
    choices: response.choices.map((choice, position): Choice => {
      const converted: Choice = {
        index: choice.index ?? position,
        message: convertMessage(choice.message ?? {}),
        finish_reason: mapOpenAIFinishReason(choice.finish_reason),
      };
      if (choice.finish_reason != null) converted.native_finish_reason = choice.finish_reason;
      if (choice.logprobs != null) converted.logprobs = choice.logprobs;
      return converted;
    }),
  };
  if (response.service_tier !== undefined) completion.service_tier = response.service_tier;
  if (response.usage) completion.usage = convertOpenAIUsage(response.usage);
  return completion;
}

function convertMessage(message: OpenAIMessage): Choice['message'] {
  const { content, reasoning } = convertOpenAIMessageText(message);
  const converted: Choice['message'] = { role: 'assistant', content: content ?? null };
  if (reasoning !== undefined) converted.reasoning = reasoning;
  if (message.tool_calls?.length) {
    // Mistral leaves out `type`; it is always a function call.
    converted.tool_calls = message.tool_calls.map((call) => ({
      id: call.id ?? '',
      type: 'function',
      function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' },
    }));
  }
  if (message.refusal != null) converted.refusal = message.refusal;
  if (message.annotations?.length) converted.annotations = message.annotations;
  return converted;
}
