import type { EventSourceMessage } from 'eventsource-parser';
import type { SpeechStreamEvent } from '../../protocol/speech.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { parseStreamEventJson } from '../shared/read-upstream-body.js';
import { excerpt, upstreamBodyLimits } from '../shared/upstream-body-limits.js';
import { parseOpenAIError } from './parse-openai-error.js';

/**
 * The events of OpenAI's speech stream as they arrive. An `{"error": …}`
 * event rejects as the upstream's failure; speech.audio.done ends the
 * speech (the rest of the body is still read, so that the connection goes
 * back to the pool); a body that ends before it was cut off.
 */
export async function* readOpenAISpeechEvents(events: AsyncIterable<EventSourceMessage>): AsyncGenerator<SpeechStreamEvent> {
  let done = false;
  for await (const { data } of events) {
    if (done || data === '[DONE]') continue;
    const event = parseStreamEventJson(data, parseOpenAIError);
    if (typeof event.type !== 'string')
      throw new UpstreamError('malformed', 'upstream sent a speech event without a type', {
        body: excerpt(data, upstreamBodyLimits().maxErrorBytes),
      });
    done = event.type === 'speech.audio.done';
    yield event as SpeechStreamEvent;
  }
  if (!done) throw new UpstreamError('connection', 'stream ended before speech.audio.done');
}
