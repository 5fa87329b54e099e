import { UpstreamError } from '../../protocol/upstream.js';
import { isRecord } from '../../util/is-record.js';
import { parseJson } from './parse-json.js';
import { type CappedText, readCappedText } from './read-capped-text.js';
import type { UpstreamResponse } from './send-upstream-request.js';
import { excerpt, upstreamBodyLimits } from './upstream-body-limits.js';
import { midStreamError, type ProviderErrorParser } from './upstream-status-error.js';

/** Reads a 2xx body up to maxBytes; the deadline stops once it is read, or reading it failed. */
async function readWithin(response: UpstreamResponse, maxBytes: number): Promise<CappedText> {
  try {
    return await readCappedText(response.body, response.headers, maxBytes);
  } catch (error) {
    throw response.classify(error);
  } finally {
    response.stopDeadline();
  }
}

/**
 * The whole body of a 2xx answer, at most the answer limit: a larger one is
 * refused as not the protocol, keeping only an excerpt (an answer that says
 * it is larger is not read beyond the excerpt).
 */
export async function readUpstreamText(response: UpstreamResponse): Promise<string> {
  const { maxAnswerBytes, maxErrorBytes } = upstreamBodyLimits();
  const declared = Number(response.headers['content-length']);
  const readable = Number.isInteger(declared) && declared > maxAnswerBytes ? maxErrorBytes : maxAnswerBytes;
  const { text, cut } = await readWithin(response, readable);
  if (!cut) return text;
  throw new UpstreamError(
    'malformed',
    `upstream answered more than the gateway's ${maxAnswerBytes}-byte limit of an answer (UPSTREAM_MAX_ANSWER_BYTES)`,
    {
      status: response.statusCode,
      body: excerpt(text, maxErrorBytes),
    },
  );
}

/**
 * The canonical answer of a one-JSON-body 2xx answer. A body that does not
 * convert is not the protocol; `expected` names what it lacked ("a message").
 */
export async function readUpstreamAnswer<T>(
  response: UpstreamResponse,
  fromBody: (body: unknown) => T | undefined,
  expected: string,
): Promise<T> {
  const text = await readUpstreamText(response);
  const answer = fromBody(parseJson(text));
  if (answer === undefined) {
    throw new UpstreamError('malformed', `upstream answered without ${expected}`, {
      status: response.statusCode,
      body: excerpt(text, upstreamBodyLimits().maxErrorBytes),
    });
  }
  return answer;
}

/** A 2xx answer to a stream request must be an event stream: anything else is not the protocol (an excerpt of it is kept). */
export async function requireEventStream(response: UpstreamResponse): Promise<void> {
  const contentType = response.headers['content-type'];
  if (typeof contentType === 'string' && contentType.startsWith('text/event-stream')) return;
  const { text } = await readWithin(response, upstreamBodyLimits().maxErrorBytes);
  throw new UpstreamError('malformed', `upstream answered a stream request with ${contentType ?? 'no content type'}`, {
    status: response.statusCode,
    body: text,
  });
}

/**
 * The JSON object of one stream event. An `{"error": …}` event is the
 * upstream failing after its 2xx, reported like a status error; anything
 * that is not a JSON object is not the protocol. Only an excerpt of a bad
 * event is kept.
 */
export function parseStreamEventJson(data: string, parseProviderError: ProviderErrorParser): Record<string, unknown> {
  const json = parseJson(data);
  const { maxErrorBytes } = upstreamBodyLimits();
  if (!isRecord(json))
    throw new UpstreamError('malformed', 'upstream sent a stream event that is not a JSON object', { body: excerpt(data, maxErrorBytes) });
  if (json.error != null) throw midStreamError(data.length > maxErrorBytes ? excerpt(data, maxErrorBytes) : json, parseProviderError, json);
  return json;
}
