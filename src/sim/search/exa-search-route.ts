import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, readBody, type SimContext, signalOnClose } from '../chat-route.js';
import { deliverJson, pause, sendJson } from '../deliver.js';
import { parseKnobs } from '../knobs.js';
import { newRequestId } from '../response-identity.js';
import { searchCorpus } from './search-corpus.js';

interface ExaSearchRequest {
  query: string;
  numResults: number;
  includeDomains: string[];
  excludeDomains: string[];
  maxCharacters: number | undefined;
  type: string;
}

const DEFAULT_RESULTS = 10;
const MAX_RESULTS = 100;

const fail = (res: ServerResponse, status: number, error: string, retryAfterSeconds?: number) =>
  sendJson(
    res,
    status,
    JSON.stringify({ requestId: newRequestId(), error }),
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  );

/**
 * `POST /search`, Exa's search API: key in `x-api-key`, `{query, type,
 * numResults, includeDomains, excludeDomains, contents: {text:
 * {maxCharacters}}}` in, `{requestId, resolvedSearchType, results: [{id,
 * url, title, publishedDate, author, text}], costDollars}` out, errors as
 * `{requestId, error}`. Results come from a fixed corpus ranked by word
 * overlap with the query, so they are deterministic. The `x-sim-*` knobs
 * apply (status, latency, hang, malformed).
 */
export async function handleExaSearch(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const raw = await readBody(req);
  const body = parseJson(raw);
  context.stats.recordChatRequest(body.ok ? body.value : raw, req.headers);
  if (typeof req.headers['x-api-key'] !== 'string' || req.headers['x-api-key'] === '')
    return fail(res, 401, 'Missing API key: pass it in the x-api-key header');
  if (!body.ok) return fail(res, 400, 'Invalid JSON body');
  const parsed = parseKnobs(undefined, req.headers);
  if (!parsed.ok) return fail(res, 400, parsed.message);
  const { knobs } = parsed;
  if (knobs.hang) return;
  const signal = signalOnClose(res);
  await pause(knobs.latencyMs, signal);
  if (knobs.status !== undefined) return fail(res, knobs.status, `simulated HTTP ${knobs.status} error`, knobs.retryAfterSeconds);

  const request = readRequest(body.value);
  if (typeof request === 'string') return fail(res, 400, request);
  const results = searchCorpus(request.query, request.numResults, request).map(({ page, score }) => {
    return {
      id: page.url,
      url: page.url,
      title: page.title,
      publishedDate: page.publishedDate,
      author: null,
      score,
      text: request.maxCharacters === undefined ? page.text : page.text.slice(0, request.maxCharacters),
    };
  });
  const answer = {
    requestId: newRequestId(),
    resolvedSearchType: request.type === 'auto' ? 'neural' : request.type,
    results,
    costDollars: { total: 0.005 + 0.001 * results.length },
  };
  return deliverJson(res, JSON.stringify(answer), knobs, signal);
}

/** The request, or what is wrong with it. */
function readRequest(value: unknown): ExaSearchRequest | string {
  const body = value as Record<string, unknown> | null;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The request body must be a JSON object';
  if (typeof body.query !== 'string' || body.query.trim() === '') return 'query: must be a non-empty string';
  const numResults = body.numResults ?? DEFAULT_RESULTS;
  if (typeof numResults !== 'number' || !Number.isInteger(numResults) || numResults < 1 || numResults > MAX_RESULTS)
    return `numResults: must be an integer from 1 to ${MAX_RESULTS}`;
  const domains = (field: string): string[] | string => {
    const list = body[field] ?? [];
    return Array.isArray(list) && list.every((item) => typeof item === 'string') ? list : `${field}: must be an array of strings`;
  };
  const includeDomains = domains('includeDomains');
  const excludeDomains = domains('excludeDomains');
  if (typeof includeDomains === 'string') return includeDomains;
  if (typeof excludeDomains === 'string') return excludeDomains;
  const text = (body.contents as { text?: { maxCharacters?: unknown } } | undefined)?.text;
  const maxCharacters =
    typeof text === 'object' && text !== null && typeof text.maxCharacters === 'number' ? text.maxCharacters : undefined;
  return {
    query: body.query,
    numResults,
    includeDomains,
    excludeDomains,
    maxCharacters,
    type: typeof body.type === 'string' ? body.type : 'auto',
  };
}
