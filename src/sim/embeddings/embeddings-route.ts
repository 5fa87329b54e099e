import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, readBody, type SimContext, signalOnClose } from '../chat-route.js';
import { deliverJson, pause, sendJson } from '../deliver.js';
import { parseKnobs } from '../knobs.js';

/** An error as a protocol answers it: its status and body. */
export interface SimError {
  status: number;
  body: unknown;
}

/** What differs between the simulated embeddings APIs. */
export interface SimEmbeddingsProtocol<Q> {
  /** Whether the request carries a key the protocol's way. */
  hasKey(req: IncomingMessage): boolean;
  missingKey(): SimError;
  invalidJson(): SimError;
  invalidKnob(message: string): SimError;
  /** The body for a `status` knob; `retryAfterSeconds` goes in a Retry-After header unless the protocol puts it in the body. */
  simulatedStatus(status: number, model: string, retryAfterSeconds?: number): SimError & { headers?: Record<string, string> };
  /** The request's own checks, with the model name stripped of its knobs (and as the path named it, knobs and all, for Gemini). */
  read(body: unknown, model: string, pathModel: string | undefined): { ok: true; request: Q } | { ok: false; error: SimError };
  /** The JSON answer of a valid request. */
  answer(request: Q): unknown;
}

const send = (res: ServerResponse, error: SimError, headers: Record<string, string> = {}) =>
  sendJson(res, error.status, JSON.stringify(error.body), headers);

/**
 * A simulated embeddings endpoint, checked in the chat route's order: the
 * key, the JSON, the knobs of the model name or `x-sim-*` headers (`latency`,
 * `ttft`, `status`, `retry_after`, `hang`, `malformed`, `fail_after`; see
 * knobs.ts), then the request. `modelOf` finds the model: in the body, or
 * in the path (Gemini).
 */
export function embeddingsRoute<Q>(
  protocol: SimEmbeddingsProtocol<Q>,
  modelOf: (body: unknown, pathModel: string | undefined) => string | undefined,
) {
  return async (req: IncomingMessage, res: ServerResponse, context: SimContext, pathModel?: string): Promise<void> => {
    const raw = await readBody(req);
    const body = parseJson(raw);
    context.stats.recordChatRequest(body.ok ? body.value : raw, req.headers);
    if (!protocol.hasKey(req)) return send(res, protocol.missingKey());
    if (!body.ok) return send(res, protocol.invalidJson());
    const parsed = parseKnobs(modelOf(body.value, pathModel), req.headers);
    if (!parsed.ok) return send(res, protocol.invalidKnob(parsed.message));
    const { knobs } = parsed;
    if (knobs.hang) return; // never answer: the socket stays open until the client gives up or the simulator closes
    const signal = signalOnClose(res);
    await pause(knobs.latencyMs, signal);
    const model = parsed.model ?? '';
    if (knobs.status !== undefined) {
      const error = protocol.simulatedStatus(knobs.status, model, knobs.retryAfterSeconds);
      return send(res, error, error.headers ?? {});
    }
    const read = protocol.read(body.value, model, pathModel);
    if (!read.ok) return send(res, read.error);
    return deliverJson(res, JSON.stringify(protocol.answer(read.request)), knobs, signal);
  };
}

/** The model field of a JSON body, when it is a string. */
export const bodyModel = (body: unknown): string | undefined => {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : undefined;
};
