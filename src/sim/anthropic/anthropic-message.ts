import type { NativeSearch } from '../search/native-search.js';
import type { MessageIdentity } from './message-identity.js';
import type { AnthropicReply } from './plan-anthropic-reply.js';

/** The usage object as Anthropic sends it in a Message and in message_start: cache counters included, at zero. */
export const messageUsage = (plan: AnthropicReply, outputTokens: number) => ({
  input_tokens: plan.inputTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: outputTokens,
  service_tier: 'standard',
});

/** The content blocks of the answer: thinking, then the text (none when empty) or the tool_use. */
function messageContent(plan: AnthropicReply, identity: MessageIdentity): object[] {
  const { reply } = plan;
  const blocks = thinkingBlocks(plan, identity);
  if (reply.kind === 'tool_call')
    blocks.push({ type: 'tool_use', id: identity.toolUseId, name: reply.name, input: JSON.parse(reply.arguments) as unknown });
  else if (reply.chunks.length > 0) blocks.push({ type: 'text', text: reply.chunks.flat().join('') });
  return blocks;
}

const thinkingBlocks = (plan: AnthropicReply, identity: MessageIdentity): object[] =>
  plan.thinking ? [{ type: 'thinking', thinking: plan.thinking.join(''), signature: identity.signature }] : [];

/** Stands in for Anthropic's opaque encrypted fields: a base64 text the client only passes back. */
const opaque = (text: string) => Buffer.from(text).toString('base64');

/**
 * The blocks of an answer that used the web_search server tool, as
 * Anthropic lays them out: the server_tool_use with the query, the
 * web_search_tool_result with the pages, then the text, the quoted sentence
 * in a block of its own carrying its web_search_result_location citation.
 */
function searchedContent(search: NativeSearch, identity: MessageIdentity): object[] {
  const toolUseId = `srvtoolu_${identity.toolUseId.slice('toolu_'.length)}`;
  const page = search.pages[0] as NativeSearch['pages'][number];
  return [
    { type: 'server_tool_use', id: toolUseId, name: 'web_search', input: { query: search.query } },
    {
      type: 'web_search_tool_result',
      tool_use_id: toolUseId,
      content: search.pages.map((p) => ({
        type: 'web_search_result',
        title: p.title,
        url: p.url,
        encrypted_content: opaque(p.text),
        page_age: null,
      })),
    },
    { type: 'text', text: search.opening },
    {
      citations: [
        {
          type: 'web_search_result_location',
          cited_text: search.sentence,
          url: page.url,
          title: page.title,
          encrypted_index: opaque(page.url),
        },
      ],
      type: 'text',
      text: search.sentence,
    },
  ];
}

/** The non-streaming Message, laid out as Anthropic sends it. */
export function anthropicMessage(plan: AnthropicReply, model: string, identity: MessageIdentity, search?: NativeSearch): object {
  const usage = messageUsage(plan, plan.outputTokens);
  return {
    model,
    id: identity.id,
    type: 'message',
    role: 'assistant',
    content: search ? [...thinkingBlocks(plan, identity), ...searchedContent(search, identity)] : messageContent(plan, identity),
    stop_reason: plan.stopReason,
    stop_sequence: plan.stopSequence,
    usage: search ? { ...usage, server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } } : usage,
  };
}
