import type { ChatCompletion, ToolCall, UrlCitation } from '../../protocol/chat.js';
import type { AnthropicMessagesResponse, AnthropicResponseBlock } from './anthropic-messages-api-types.js';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

type Message = ChatCompletion['choices'][number]['message'];

/**
 * The url_citation annotations of a text block that native web search
 * sourced: the block's span in the whole content (in code points, as
 * OpenAI counts), the result's URL and title, and the cited text.
 */
function citationsOf(block: AnthropicResponseBlock, before: string, after: string): UrlCitation[] {
  return (block.citations ?? []).flatMap((citation) =>
    citation.type === 'web_search_result_location' && typeof citation.url === 'string'
      ? [
          {
            type: 'url_citation' as const,
            url_citation: {
              url: citation.url,
              title: citation.title ?? citation.url,
              ...(citation.cited_text ? { content: citation.cited_text } : {}),
              start_index: [...before].length,
              end_index: [...after].length,
            },
          },
        ]
      : [],
  );
}

/**
 * The canonical response for a Message (pure). Text blocks make the
 * content, thinking blocks the reasoning, tool_use blocks the tool calls
 * (input as JSON arguments). Blocks of Anthropic's own server tools and
 * redacted thinking are not the client's to see or run, and are left out;
 * native web search's citations on text blocks become url_citation annotations.
 * Anthropic sends no creation time and no fingerprint: `created` is when the
 * answer arrived.
 */
export function convertAnthropicMessagesResponse(response: AnthropicMessagesResponse, created: number): ChatCompletion {
  let content: string | null = null;
  let reasoning: string | undefined;
  const toolCalls: ToolCall[] = [];
  const annotations: UrlCitation[] = [];
  for (const block of response.content) {
    if (block.type === 'text') {
      const start: string = content ?? '';
      content = start + (block.text ?? '');
      annotations.push(...citationsOf(block, start, content));
    } else if (block.type === 'thinking') reasoning = (reasoning ?? '') + (block.thinking ?? '');
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id ?? '',
        type: 'function',
        function: { name: block.name ?? '', arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const message: Message = { role: 'assistant', content };
  if (reasoning !== undefined) message.reasoning = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (annotations.length > 0) message.annotations = annotations;

  const choice: ChatCompletion['choices'][number] = { index: 0, message, finish_reason: mapAnthropicStopReason(response.stop_reason) };
  if (response.stop_reason != null) choice.native_finish_reason = response.stop_reason;
  const completion: ChatCompletion = {
    id: response.id ?? '',
    object: 'chat.completion',
    created,
    model: response.model ?? '',
    system_fingerprint: null,
    choices: [choice],
  };
  if (response.usage?.service_tier != null) completion.service_tier = response.usage.service_tier;
  if (response.usage) completion.usage = convertAnthropicUsage(response.usage);
  return completion;
}
