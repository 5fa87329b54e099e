import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasBearerToken, parseJson, readBody, type SimContext, signalOnClose } from '../chat-route.js';
import { deliverJson, pause, sendError } from '../deliver.js';
import { parseKnobs } from '../knobs.js';
import { SimErrors } from '../openai-errors.js';
import { moderate } from './moderation-triggers.js';

/** The inputs OpenAI accepts as text: a string or an array of strings (or of `{type: "text", text}` parts). */
function textInputs(input: unknown): string[] | undefined {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  const texts: string[] = [];
  for (const item of input) {
    if (typeof item === 'string') texts.push(item);
    else if (
      typeof item === 'object' &&
      item !== null &&
      (item as { type?: unknown }).type === 'text' &&
      typeof (item as { text?: unknown }).text === 'string'
    )
      texts.push((item as { text: string }).text);
    else return undefined;
  }
  return texts;
}

/**
 * `POST /v1/moderations`, OpenAI's moderation API: one result per input,
 * flagged by the trigger words of moderation-triggers.ts. The model name
 * and `x-sim-*` headers take the chat knobs (`latency`, `status`,
 * `retry_after`, `hang`, `malformed`).
 */
export async function handleModerations(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const raw = await readBody(req);
  const body = parseJson(raw);
  context.stats.recordChatRequest(body.ok ? body.value : raw, req.headers);
  if (!hasBearerToken(req.headers.authorization)) return sendError(res, SimErrors.missingApiKey());
  if (!body.ok) return sendError(res, SimErrors.unparseableJson());
  const request = (typeof body.value === 'object' && body.value !== null ? body.value : {}) as { model?: unknown; input?: unknown };

  const parsed = parseKnobs(typeof request.model === 'string' ? request.model : undefined, req.headers);
  if (!parsed.ok) return sendError(res, SimErrors.invalidKnob(parsed.message));
  const { knobs } = parsed;
  const model = parsed.model ?? 'omni-moderation-latest';
  if (knobs.hang) return;
  const signal = signalOnClose(res);
  await pause(knobs.latencyMs, signal);
  if (knobs.status !== undefined) return sendError(res, SimErrors.simulatedStatus(knobs.status, model), knobs.retryAfterSeconds);
  if (request.input === undefined) return sendError(res, SimErrors.missingParameter('input'));
  const inputs = textInputs(request.input);
  if (!inputs)
    return sendError(
      res,
      SimErrors.invalidType(
        'input',
        'a string or an array of strings',
        Array.isArray(request.input) ? 'an invalid array' : typeof request.input,
      ),
    );

  const answer = { id: `modr-${randomBytes(12).toString('hex')}`, model, results: inputs.map(moderate) };
  return deliverJson(res, JSON.stringify(answer), knobs, signal);
}
