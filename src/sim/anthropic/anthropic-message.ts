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
  const blocks: object[] = plan.thinking ? [{ type: 'thinking', thinking: plan.thinking.join(''), signature: identity.signature }] : [];
  if (reply.kind === 'tool_call') blocks.push({ type: 'tool_use', id: identity.toolUseId, name: reply.name, input: JSON.parse(reply.arguments) as unknown });
  else if (reply.chunks.length > 0) blocks.push({ type: 'text', text: reply.chunks.flat().join('') });
  return blocks;
}

/** The non-streaming Message, laid out as Anthropic sends it. */
export function anthropicMessage(plan: AnthropicReply, model: string, identity: MessageIdentity): object {
  return {
    model,
    id: identity.id,
    type: 'message',
    role: 'assistant',
    content: messageContent(plan, identity),
    stop_reason: plan.stopReason,
    stop_sequence: plan.stopSequence,
    usage: messageUsage(plan, plan.outputTokens),
  };
}
