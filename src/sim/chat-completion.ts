import { chatLogprobs } from './logprobs.js';
import type { Reply, SimChatRequest } from './reply.js';
import { SYSTEM_FINGERPRINT, type ResponseIdentity } from './response-identity.js';
import { servedTier } from './service-tier.js';

/** The non-streaming `chat.completion` body, laid out as OpenAI sends it. */
export function chatCompletion(reply: Reply, request: SimChatRequest, identity: ResponseIdentity): object {
  const tokens = reply.kind === 'text' ? reply.chunks.flat() : [];
  const message =
    reply.kind === 'text'
      ? { role: 'assistant', content: tokens.join(''), refusal: null, annotations: [] }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: identity.toolCallId, type: 'function', function: { name: reply.name, arguments: reply.arguments } }],
          refusal: null,
          annotations: [],
        };
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [
      {
        index: 0,
        message,
        logprobs: request.logprobs && reply.kind === 'text' ? chatLogprobs(tokens, 0, request.top_logprobs ?? 0) : null,
        finish_reason: reply.kind === 'text' ? reply.finishReason : 'tool_calls',
      },
    ],
    usage: reply.usage,
    service_tier: servedTier(request.service_tier),
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}
