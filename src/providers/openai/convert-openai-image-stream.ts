import type { EventSourceMessage } from 'eventsource-parser';
import type { ImageStreamEvent } from '../../protocol/images.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { parseStreamEventJson } from '../shared/read-upstream-body.js';
import { readImageUsage } from './convert-openai-images-response.js';
import { parseOpenAIError } from './parse-openai-error.js';

/** The base64 bytes of an event, which every image event carries; anything else is not OpenAI's protocol. */
function bytesOf(event: Record<string, unknown>): string {
  if (typeof event.b64_json === 'string' && event.b64_json !== '') return event.b64_json;
  throw new UpstreamError('malformed', `upstream sent ${String(event.type)} without b64_json`);
}

/**
 * One event of OpenAI's image stream (generations' `image_generation.*`,
 * edits' `image_edit.*`) as canonical; undefined for events of other types,
 * which are skipped. An `error` event throws as a status error would.
 */
export function convertOpenAIImageStreamEvent(data: string): ImageStreamEvent | undefined {
  const event = parseStreamEventJson(data, parseOpenAIError);
  const type = typeof event.type === 'string' ? event.type.replace(/^image_(generation|edit)\./, '') : '';
  if (type === 'partial_image') {
    const index = event.partial_image_index;
    return { type: 'partial', b64_json: bytesOf(event), partialImageIndex: Number.isSafeInteger(index) ? (index as number) : 0 };
  }
  if (type !== 'completed') return undefined;
  const usage = readImageUsage(event.usage);
  return {
    type: 'completed',
    b64_json: bytesOf(event),
    ...(Number.isSafeInteger(event.created_at) ? { created: event.created_at as number } : {}),
    ...(typeof event.output_format === 'string' ? { outputFormat: event.output_format } : {}),
    ...(usage ? { usage } : {}),
  };
}

/**
 * The canonical events of an OpenAI image stream as they arrive. A stream
 * that ends before any image completed was cut off; `[DONE]`, which hosts
 * copying the API may send, ends nothing early.
 */
export async function* readOpenAIImageStream(events: AsyncIterable<EventSourceMessage>): AsyncGenerator<ImageStreamEvent> {
  let completed = false;
  for await (const { data } of events) {
    if (data === '[DONE]') continue;
    const event = convertOpenAIImageStreamEvent(data);
    if (!event) continue;
    completed ||= event.type === 'completed';
    yield event;
  }
  if (!completed) throw new UpstreamError('connection', 'stream ended before an image completed');
}
