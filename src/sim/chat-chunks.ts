import { multipleChoice } from './decisions/multiple-choice.js';
import { reportedUsage, type UsageKnob } from './knobs.js';
import { chatLogprobs } from './logprobs.js';
import { lastUserText, type Reply, type SimChatRequest } from './reply.js';
import { type ResponseIdentity, SYSTEM_FINGERPRINT } from './response-identity.js';
import { servedTier } from './service-tier.js';

/**
 * The `chat.completion.chunk` payloads of a stream, as JSON texts in order:
 * a role chunk, the content (or tool-argument) chunks, a chunk with the
 * finish_reason, and with `stream_options.include_usage` a `choices: []` usage
 * chunk (every other chunk then carries `usage: null`, as at OpenAI), as
 * the `usage` knob says: none, or other figures.
 */
export function chatCompletionChunks(reply: Reply, request: SimChatRequest, identity: ResponseIdentity, usageKnob?: UsageKnob): string[] {
  const includeUsage = request.stream_options?.include_usage === true;
  const chunk = (choices: object[], usage: object | null = null) =>
    JSON.stringify({
      id: identity.id,
      object: 'chat.completion.chunk',
      created: identity.created,
      model: identity.model,
      service_tier: servedTier(request.service_tier),
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices,
      ...(includeUsage ? { usage } : {}),
    });
  const choice = (delta: object, finishReason: string | null = null, logprobs: object | null = null) => ({
    index: 0,
    delta,
    logprobs,
    finish_reason: finishReason,
  });

  const chunks: string[] = [];
  if (reply.kind === 'text') {
    const letters = request.logprobs ? multipleChoice(lastUserText(request)) : undefined;
    chunks.push(chunk([choice({ role: 'assistant', content: '', refusal: null })]));
    let position = 0;
    for (const tokens of reply.chunks) {
      const logprobs = request.logprobs ? chatLogprobs(tokens, position, request.top_logprobs ?? 0, letters) : null;
      chunks.push(chunk([choice({ content: tokens.join('') }, null, logprobs)]));
      position += tokens.length;
    }
    chunks.push(chunk([choice({}, reply.finishReason)]));
  } else {
    const call = { index: 0, id: identity.toolCallId, type: 'function', function: { name: reply.name, arguments: '' } };
    chunks.push(chunk([choice({ role: 'assistant', content: null, tool_calls: [call], refusal: null })]));
    for (const piece of reply.argumentChunks) {
      chunks.push(chunk([choice({ tool_calls: [{ index: 0, function: { arguments: piece } }] })]));
    }
    chunks.push(chunk([choice({}, 'tool_calls')]));
  }
  const usage = reportedUsage(reply.usage, usageKnob);
  if (includeUsage && usage !== undefined) chunks.push(chunk([], usage));
  return chunks;
}
