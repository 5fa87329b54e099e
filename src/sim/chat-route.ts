import type { IncomingMessage, ServerResponse } from 'node:http';
import { chatCompletionChunks } from './chat-chunks.js';
import { chatCompletion, searchedCompletion } from './chat-completion.js';
import { deliverJson, deliverStream, pause, sendError } from './deliver.js';
import { FIXTURE_MODEL_PREFIX, type FixtureLibrary } from './fixtures.js';
import { type Knobs, parseKnobs } from './knobs.js';
import { type OpenAiError, SimErrors } from './openai-errors.js';
import { lastUserText, planReply, type SimChatRequest } from './reply.js';
import { newResponseIdentity } from './response-identity.js';
import { searchNatively } from './search/native-search.js';
import type { SimStats } from './stats.js';
import { validateChatRequest } from './validate-chat-request.js';

export interface SimContext {
  stats: SimStats;
  fixtures: FixtureLibrary;
}

type Answer = { events: string[] } | { json: string } | { error: OpenAiError };

export const hasBearerToken = (authorization: string | undefined): authorization is string =>
  authorization !== undefined && /^Bearer\s+\S/i.test(authorization);

/** Keys starting `sk-sim-revoked` stand for a key the account revoked: the upstream refuses them as OpenAI does a wrong key. */
export const isRevokedKey = (authorization: string | undefined) => /^Bearer\s+sk-sim-revoked/i.test(authorization ?? '');

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Aborts when the response closes: finished, or the client went away (which ends any pending delay). */
export function signalOnClose(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  return controller.signal;
}

/** What an OpenAI JSON endpoint goes on with once the request passed the checks every such endpoint makes first. */
export interface AdmittedRequest {
  body: unknown;
  knobs: Knobs;
  model: string | undefined;
  signal: AbortSignal;
}

/**
 * The checks OpenAI's JSON endpoints make before reading the request, in its
 * order: the body read (and recorded), authentication, JSON; then the knobs'
 * faults (a hang never answers, the latency, a simulated status). Undefined
 * once it has answered, or when it never will.
 */
export async function admitOpenAIRequest(
  req: IncomingMessage,
  res: ServerResponse,
  context: SimContext,
  /** The model a simulated status names when the request names none. */
  defaultModel = 'sim-model',
): Promise<AdmittedRequest | undefined> {
  const raw = await readBody(req);
  const body = parseJson(raw);
  context.stats.recordChatRequest(body.ok ? body.value : raw, req.headers);
  if (!hasBearerToken(req.headers.authorization)) return void sendError(res, SimErrors.missingApiKey());
  if (isRevokedKey(req.headers.authorization)) return void sendError(res, SimErrors.revokedApiKey());
  if (!body.ok) return void sendError(res, SimErrors.unparseableJson());

  const requestedModel = (body.value as { model?: unknown } | null)?.model;
  const parsed = parseKnobs(typeof requestedModel === 'string' ? requestedModel : undefined, req.headers);
  if (!parsed.ok) return void sendError(res, SimErrors.invalidKnob(parsed.message));
  const { knobs, model } = parsed;
  if (knobs.hang) return undefined; // never answer: the socket stays open until the client gives up or the simulator closes

  const signal = signalOnClose(res);
  await pause(knobs.latencyMs, signal);
  if (knobs.status !== undefined)
    return void sendError(res, SimErrors.simulatedStatus(knobs.status, model ?? defaultModel), knobs.retryAfterSeconds);
  return { body: body.value, knobs, model, signal };
}

/**
 * `POST /v1/chat/completions`, in OpenAI's order of checks: authentication,
 * JSON, then the request; the knobs' faults come between the JSON and the
 * request checks, so that they work whatever the body holds.
 */
export async function handleChatCompletions(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const admitted = await admitOpenAIRequest(req, res, context);
  if (!admitted) return;
  const { body, knobs, model, signal } = admitted;
  const validation = validateChatRequest(body, model);
  if (!validation.ok) return sendError(res, validation.error);

  const answer = await answerFor(validation.request, knobs, context.fixtures);
  if ('error' in answer) return sendError(res, answer.error);
  return 'events' in answer ? deliverStream(res, answer.events, knobs, signal) : deliverJson(res, answer.json, knobs, signal);
}

async function answerFor(request: SimChatRequest, knobs: Knobs, fixtures: FixtureLibrary): Promise<Answer> {
  if (!request.model.startsWith(FIXTURE_MODEL_PREFIX)) {
    const reply = planReply(request, knobs.chunks);
    const identity = newResponseIdentity(request.model);
    if (request.stream) return { events: chatCompletionChunks(reply, request, identity, knobs.usage) };
    // A search model (web_search_options) answers from the simulated web and cites it, non-streaming.
    const search = request.web_search_options && reply.kind === 'text' ? searchNatively(lastUserText(request)) : undefined;
    if (search && reply.kind === 'text') return { json: JSON.stringify(searchedCompletion(reply, request, identity, search, knobs.usage)) };
    return { json: JSON.stringify(chatCompletion(reply, request, identity, knobs.usage)) };
  }
  const lookup = await fixtures.load(request.model.slice(FIXTURE_MODEL_PREFIX.length));
  if (!lookup.ok) return { error: SimErrors.modelNotFound(request.model, lookup.reason) };
  const { events, json } = lookup.fixture;
  if (request.stream) return events ? { events } : { error: SimErrors.modelNotFound(request.model, 'no streaming recording') };
  return json !== undefined ? { json } : { error: SimErrors.modelNotFound(request.model, 'no non-streaming recording') };
}
