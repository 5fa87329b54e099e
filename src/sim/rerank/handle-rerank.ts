import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RerankScore } from '../../protocol/rerank.js';
import { hasBearerToken, parseJson, readBody, type SimContext, signalOnClose } from '../chat-route.js';
import { deliverJson, pause, sendJson } from '../deliver.js';
import { parseKnobs } from '../knobs.js';
import { overlapScores } from './overlap-scores.js';
import { type SimRerankRequest, validateRerankRequest } from './validate-rerank-request.js';

/** What differs between the simulated rerank APIs: their error body and their answer. */
export interface SimRerankProtocol {
  errorBody(message: string): unknown;
  answer(request: SimRerankRequest, scores: RerankScore[]): unknown;
}

/** What a `status` knob answers with, in words the real APIs use. */
function statusMessage(status: number): string {
  if (status === 401) return 'invalid api token';
  if (status === 429) return 'You are past the per minute request limit, please wait and try again later.';
  if (status >= 500) return 'internal server error';
  return `simulated HTTP ${status} error`;
}

/**
 * A simulated rerank endpoint, checked in the chat route's order:
 * authentication, JSON, the knobs of the model name or `x-sim-*` headers
 * (`latency`, `ttft`, `status`, `retry_after`, `hang`, `malformed`,
 * `fail_after`; see knobs.ts), then the request. Scores are word overlap
 * (overlap-scores.ts), so answers are deterministic.
 */
export function rerankRoute(protocol: SimRerankProtocol) {
  const fail = (res: ServerResponse, status: number, message: string, retryAfterSeconds?: number) =>
    sendJson(
      res,
      status,
      JSON.stringify(protocol.errorBody(message)),
      retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
    );

  return async (req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> => {
    const raw = await readBody(req);
    const body = parseJson(raw);
    context.stats.recordChatRequest(body.ok ? body.value : raw, req.headers);
    if (!hasBearerToken(req.headers.authorization)) return fail(res, 401, 'no api key supplied');
    if (!body.ok) return fail(res, 400, 'invalid request: the body is not valid JSON');

    const requestedModel = (body.value as { model?: unknown } | null)?.model;
    const parsed = parseKnobs(typeof requestedModel === 'string' ? requestedModel : undefined, req.headers);
    if (!parsed.ok) return fail(res, 400, parsed.message);
    const { knobs, model } = parsed;
    if (knobs.hang) return; // never answer: the socket stays open until the client gives up or the simulator closes

    const signal = signalOnClose(res);
    await pause(knobs.latencyMs, signal);
    if (knobs.status !== undefined) return fail(res, knobs.status, statusMessage(knobs.status), knobs.retryAfterSeconds);
    const validation = validateRerankRequest(body.value, model);
    if (!validation.ok) return fail(res, 400, validation.message);

    const { request } = validation;
    const answer = protocol.answer(request, overlapScores(request.query, request.documents, request.top_n));
    return deliverJson(res, JSON.stringify(answer), knobs, signal);
  };
}
