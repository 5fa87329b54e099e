import { multipleChoice } from './decisions/multiple-choice.js';
import { reportedUsage, type UsageKnob } from './knobs.js';
import { chatLogprobs } from './logprobs.js';
import { lastUserText, type Reply, type SimChatRequest } from './reply.js';
import { type ResponseIdentity, SYSTEM_FINGERPRINT } from './response-identity.js';
import type { NativeSearch } from './search/native-search.js';
import { servedTier } from './service-tier.js';
import { splitTokens } from './tokens.js';

/** The non-streaming `chat.completion` body, laid out as OpenAI sends it; its usage as the `usage` knob says. */
export function chatCompletion(reply: Reply, request: SimChatRequest, identity: ResponseIdentity, usageKnob?: UsageKnob): object {
  const usage = reportedUsage(reply.usage, usageKnob);
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
        logprobs:
          request.logprobs && reply.kind === 'text'
            ? chatLogprobs(tokens, 0, request.top_logprobs ?? 0, multipleChoice(lastUserText(request)))
            : null,
        finish_reason: reply.kind === 'text' ? reply.finishReason : 'tool_calls',
      },
    ],
    ...(usage !== undefined ? { usage } : {}),
    service_tier: servedTier(request.service_tier),
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

/**
 * The answer of a search model (gpt-4o-search-preview and the like): the
 * quoted sentence followed by a markdown link to its page, and that link as
 * a url_citation annotation, in OpenAI's shape (indexes in characters).
 */
export function searchedCompletion(
  reply: Extract<Reply, { kind: 'text' }>,
  request: SimChatRequest,
  identity: ResponseIdentity,
  search: NativeSearch,
  usageKnob?: UsageKnob,
): object {
  const page = search.pages[0] as NativeSearch['pages'][number];
  const link = `([${new URL(page.url).hostname}](${page.url}))`;
  const text = `${search.opening}${search.sentence} ${link}`;
  const tokens = splitTokens(text);
  const extra = tokens.length - reply.chunks.flat().length;
  const usage = {
    ...reply.usage,
    completion_tokens: reply.usage.completion_tokens + extra,
    total_tokens: reply.usage.total_tokens + extra,
  };
  const completion = chatCompletion({ ...reply, chunks: tokens.map((token) => [token]), usage }, request, identity, usageKnob) as {
    choices: { message: Record<string, unknown> }[];
  };
  const start = text.length - link.length;
  (completion.choices[0] as { message: Record<string, unknown> }).message.annotations = [
    { type: 'url_citation', url_citation: { end_index: text.length, start_index: start, title: page.title, url: page.url } },
  ];
  return completion;
}
