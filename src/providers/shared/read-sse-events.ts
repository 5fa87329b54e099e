import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { UpstreamError } from '../../protocol/upstream.js';
import { upstreamBodyLimits } from './upstream-body-limits.js';

/**
 * The server-sent events of a response body, parsed by eventsource-parser.
 * Pull-based: the next body chunk is read only when the consumer asks for the
 * next event, so a slow consumer leaves bytes in the socket (backpressure) and
 * stopping the iteration destroys the body. One event (or one line) may hold
 * at most maxEventChars: past it the parser drops what it buffered and the
 * stream fails, so an upstream that never ends an event cannot grow memory.
 */
export async function* readSseEvents(
  body: AsyncIterable<Uint8Array>,
  maxEventChars = upstreamBodyLimits().maxAnswerBytes,
): AsyncGenerator<EventSourceMessage> {
  const parsed: EventSourceMessage[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent: (event) => parsed.push(event),
    // The parser's other complaints (an unknown field, a bad retry) are ignored, as browsers do.
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
    maxBufferSize: maxEventChars,
  });
  const decoder = new TextDecoder();
  const feed = (text: string) => {
    parser.feed(text);
    if (overflow)
      throw new UpstreamError(
        'malformed',
        `upstream sent a stream event larger than the gateway's ${maxEventChars}-character limit (UPSTREAM_MAX_ANSWER_BYTES)`,
      );
  };
  for await (const bytes of body) {
    feed(decoder.decode(bytes, { stream: true }));
    yield* parsed.splice(0);
  }
  // An event not ended by a blank line when the body ends is discarded, as the SSE spec says.
  feed(decoder.decode());
  yield* parsed.splice(0);
}
