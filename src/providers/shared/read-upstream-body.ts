import { UpstreamError } from '../types.js';
import { isRecord } from './is-record.js';
import { parseJson } from './parse-json.js';
import type { UpstreamResponse } from './send-upstream-request.js';
import { midStreamError, type ProviderErrorParser } from './upstream-status-error.js';

/** The whole body of a 2xx answer; the deadline stops once it is read, or reading it failed. */
export async function readUpstreamText(response: UpstreamResponse): Promise<string> {
  try {
    return await response.body.text();
  } catch (error) {
    throw response.classify(error);
  } finally {
    response.stopDeadline();
  }
}

/**
 * The canonical answer of a one-JSON-body 2xx answer. A body that does not
 * convert is not the protocol; `expected` names what it lacked ("a message").
 */
export async function readUpstreamAnswer<T>(response: UpstreamResponse, fromBody: (body: unknown) => T | undefined, expected: string): Promise<T> {
  const text = await readUpstreamText(response);
  const answer = fromBody(parseJson(text));
  if (answer === undefined) throw new UpstreamError('malformed', `upstream answered without ${expected}`, { status: response.statusCode, body: text });
  return answer;
}

/** A 2xx answer to a stream request must be an event stream: anything else is not the protocol. */
export async function requireEventStream(response: UpstreamResponse): Promise<void> {
  const contentType = response.headers['content-type'];
  if (typeof contentType === 'string' && contentType.startsWith('text/event-stream')) return;
  const body = await readUpstreamText(response);
  throw new UpstreamError('malformed', `upstream answered a stream request with ${contentType ?? 'no content type'}`, {
    status: response.statusCode,
    body,
  });
}

/**
 * The JSON object of one stream event. An `{"error": …}` event is the
 * upstream failing after its 2xx, reported like a status error; anything
 * that is not a JSON object is not the protocol.
 */
export function parseStreamEventJson(data: string, parseProviderError: ProviderErrorParser): Record<string, unknown> {
  const json = parseJson(data);
  if (!isRecord(json)) throw new UpstreamError('malformed', 'upstream sent a stream event that is not a JSON object', { body: data });
  if (json.error != null) throw midStreamError(json, parseProviderError);
  return json;
}
