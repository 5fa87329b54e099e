import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * The server-sent events of a response body, parsed by eventsource-parser.
 * Pull-based: the next body chunk is read only when the consumer asks for the
 * next event, so a slow consumer leaves bytes in the socket (backpressure) and
 * stopping the iteration destroys the body.
 */
export async function* readSseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const parsed: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => parsed.push(event) });
  const decoder = new TextDecoder();
  for await (const bytes of body) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    yield* parsed.splice(0);
  }
  // An event not ended by a blank line when the body ends is discarded, as the SSE spec says.
  parser.feed(decoder.decode());
  yield* parsed.splice(0);
}
