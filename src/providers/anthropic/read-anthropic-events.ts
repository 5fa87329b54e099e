import type { EventSourceMessage } from 'eventsource-parser';
import type { NativeMessagesEvent } from '../../protocol/adapters.js';
import type { MessagesStreamEvent } from '../../protocol/messages.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { parseStreamEventJson } from '../shared/read-upstream-body.js';
import { excerpt, upstreamBodyLimits } from '../shared/upstream-body-limits.js';
import type { AnthropicStreamEvent } from './anthropic-messages-api-types.js';
import { convertAnthropicStreamEvent, createAnthropicStreamState } from './convert-anthropic-stream-event.js';
import { parseAnthropicError } from './parse-anthropic-error.js';

/** Every event names its type; the conversion reads the rest leniently. */
function isStreamEvent(json: Record<string, unknown>): json is Record<string, unknown> & AnthropicStreamEvent & MessagesStreamEvent {
  return typeof json.type === 'string';
}

/**
 * The events of a Messages stream as they arrive, each with its canonical
 * chunk when it has one. An `error` event (Anthropic's overloaded_error
 * mid-stream) rejects with its type as the provider code. message_stop ends
 * the answer; the rest of the body is still read so that the connection
 * goes back to the pool. A body that ends before message_stop was cut off.
 */
export async function* readAnthropicEvents(
  events: AsyncIterable<EventSourceMessage>,
  created: number,
): AsyncGenerator<NativeMessagesEvent> {
  const state = createAnthropicStreamState(created);
  for await (const { data } of events) {
    if (state.stopped) continue;
    const event = parseStreamEventJson(data, parseAnthropicError);
    if (!isStreamEvent(event))
      throw new UpstreamError('malformed', 'upstream sent a stream event without a type', {
        body: excerpt(data, upstreamBodyLimits().maxErrorBytes),
      });
    const chunk = convertAnthropicStreamEvent(event, state);
    yield chunk ? { event, chunk } : { event };
  }
  if (!state.stopped) throw new UpstreamError('connection', 'stream ended before message_stop');
}
