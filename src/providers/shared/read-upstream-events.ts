import type { EventSourceMessage } from 'eventsource-parser';
import { readSseEvents } from './read-sse-events.js';
import type { UpstreamResponse } from './send-upstream-request.js';

/**
 * The server-sent events of a 2xx stream, pulled one body read at a time.
 * The deadline stops at the first event (the first-chunk limit); a failed
 * read becomes an UpstreamError (timeout, aborted, connection); and however
 * the iteration ends (the body's end, a failure, the consumer stopping
 * early) the body is destroyed, which releases the socket, a no-op once the
 * body has ended.
 */
export async function* readUpstreamEvents(response: UpstreamResponse): AsyncGenerator<EventSourceMessage> {
  try {
    for await (const event of readSseEvents(response.body)) {
      response.stopDeadline();
      yield event;
    }
  } catch (error) {
    throw response.classify(error);
  } finally {
    response.stopDeadline();
    response.body.destroy();
  }
}
