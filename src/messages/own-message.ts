import type { MessagesResponse, MessagesStreamEvent } from '../protocol/messages.js';
import { isRecord } from '../util/is-record.js';

/**
 * A Message and its stream's events as the gateway answers them, whoever made
 * them (an upstream's own Messages API, relayed, or the translation of a chat
 * answer): with every field the reference's Message always has, null where
 * nothing was said of it. Anthropic's own answers leave some out (container,
 * stop_details, a text block's citations, parts of usage), and a translation
 * has nothing to say of them; a tool call without a `caller` was made by the
 * model itself (`direct`, as Anthropic names a call not made from its code
 * execution tool).
 */

/** The object with each default it has no value for (what it has, null included, stays). */
const withDefaults = (object: Record<string, unknown>, defaults: Record<string, unknown>) => ({
  ...object,
  ...Object.fromEntries(Object.entries(defaults).filter(([key]) => object[key] === undefined)),
});

const UNSAID = { container: null, stop_details: null };
/** The cache writes by lifetime, the thinking tokens, the server tools' requests, where it ran and the tier. */
const UNSAID_USAGE = { cache_creation: null, output_tokens_details: null, server_tool_use: null, inference_geo: null, service_tier: null };

const ownUsage = (usage: unknown) => withDefaults(isRecord(usage) ? usage : {}, UNSAID_USAGE);

function ownBlock(block: unknown): unknown {
  if (!isRecord(block)) return block;
  if (block.type === 'text') return withDefaults(block, { citations: null });
  if (block.type === 'tool_use') return withDefaults(block, { caller: { type: 'direct' } });
  return block;
}

export function ownMessage<T extends MessagesResponse | Record<string, unknown>>(message: T): T {
  const content = Array.isArray(message.content) ? message.content.map(ownBlock) : message.content;
  return withDefaults({ ...message, content, usage: ownUsage(message.usage) }, UNSAID) as T;
}

/** A stream event with the same fields filled: message_start's Message, a started block, message_delta's delta and usage. */
export function ownEvent(event: MessagesStreamEvent): MessagesStreamEvent {
  switch (event.type) {
    case 'message_start':
      return isRecord(event.message) ? { ...event, message: ownMessage(event.message) } : event;
    case 'content_block_start':
      return { ...event, content_block: ownBlock(event.content_block) };
    case 'message_delta':
      return { ...event, delta: withDefaults(isRecord(event.delta) ? event.delta : {}, UNSAID), usage: ownUsage(event.usage) };
    default:
      return event;
  }
}
