import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, readBody, type SimContext, signalOnClose } from '../chat-route.js';
import { deliverJson, deliverStream, pause, sendJson } from '../deliver.js';
import { FIXTURE_MODEL_PREFIX, FixtureLibrary, type RecordingProtocol } from '../fixtures.js';
import { type Knobs, parseKnobs } from '../knobs.js';
import { searchNatively } from '../search/native-search.js';
import { type AnthropicError, AnthropicErrors } from './anthropic-errors.js';
import { anthropicMessage } from './anthropic-message.js';
import { anthropicFraming, anthropicStreamEvents } from './anthropic-stream-events.js';
import { newMessageIdentity } from './message-identity.js';
import { lastUserTextOf, planAnthropicReply } from './plan-anthropic-reply.js';
import type { SimMessagesRequest } from './sim-messages-request.js';
import { validateMessagesRequest } from './validate-messages-request.js';

/** Anthropic's payloads all name their `type`; error bodies are not answers to replay. */
const ANTHROPIC_RECORDINGS: RecordingProtocol = {
  name: 'Messages API',
  isPayload(text) {
    try {
      const type = (JSON.parse(text) as { type?: unknown }).type;
      return typeof type === 'string' && type !== 'error';
    } catch {
      return false;
    }
  },
};

/** One library of Anthropic recordings per simulator, over the same folder as its Chat Completions ones. */
const recordingLibraries = new WeakMap<FixtureLibrary, FixtureLibrary>();
function anthropicRecordings(fixtures: FixtureLibrary): FixtureLibrary {
  let library = recordingLibraries.get(fixtures);
  if (!library) {
    library = new FixtureLibrary(fixtures.dir, ANTHROPIC_RECORDINGS);
    recordingLibraries.set(fixtures, library);
  }
  return library;
}

type Answer = { events: string[] } | { json: string } | { error: AnthropicError };

const hasHeader = (req: IncomingMessage, name: string) => (req.headers[name]?.length ?? 0) > 0;

function sendError(res: ServerResponse, error: AnthropicError, retryAfterSeconds?: number): void {
  sendJson(res, error.status, JSON.stringify(error.body), {
    'request-id': error.body.request_id,
    ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
  });
}

/**
 * `POST /v1/messages`, Anthropic's Messages API, with the same knobs as the
 * OpenAI side (see knobs.ts; `status` answers with Anthropic's error types,
 * e.g. 529 overloaded_error, and `fail_mode=error-event` ends the stream
 * with an `event: error` overloaded_error). Checks come in Anthropic's
 * order: the x-api-key and anthropic-version headers, the JSON, then the
 * request; the knobs' faults come before the request checks, so that they
 * work whatever the body holds. `fixture:anthropic/<recording>` replays a
 * recorded stream or Message.
 */
export async function handleMessages(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const raw = await readBody(req);
  const body = parseJson(raw);
  context.stats.recordChatRequest(body.ok ? body.value : raw, req.headers);
  if (!hasHeader(req, 'x-api-key')) return sendError(res, AnthropicErrors.missingApiKey());
  if (!hasHeader(req, 'anthropic-version')) return sendError(res, AnthropicErrors.missingVersion());
  if (!body.ok) return sendError(res, AnthropicErrors.unparseableJson());

  const requestedModel = (body.value as { model?: unknown } | null)?.model;
  const parsed = parseKnobs(typeof requestedModel === 'string' ? requestedModel : undefined, req.headers);
  if (!parsed.ok) return sendError(res, AnthropicErrors.invalidRequest(parsed.message));
  const { knobs, model } = parsed;
  if (knobs.hang) return; // never answer: the socket stays open until the client gives up or the simulator closes

  const signal = signalOnClose(res);
  await pause(knobs.latencyMs, signal);
  if (knobs.status !== undefined) return sendError(res, AnthropicErrors.simulatedStatus(knobs.status), knobs.retryAfterSeconds);
  const validation = validateMessagesRequest(body.value, model);
  if (!validation.ok) return sendError(res, validation.error);

  const answer = await answerFor(validation.request, knobs, anthropicRecordings(context.fixtures));
  if ('error' in answer) return sendError(res, answer.error);
  if ('json' in answer) return deliverJson(res, answer.json, knobs, signal);
  return deliverStream(res, answer.events, knobs, signal, anthropicFraming(answer.events));
}

async function answerFor(request: SimMessagesRequest, knobs: Knobs, recordings: FixtureLibrary): Promise<Answer> {
  if (!request.model.startsWith(FIXTURE_MODEL_PREFIX)) {
    const plan = planAnthropicReply(request, knobs.chunks);
    const identity = newMessageIdentity();
    if (request.stream) return { events: anthropicStreamEvents(plan, request.model, identity) };
    // With the web_search server tool the simulated Claude searches the simulated web first (non-streaming).
    const searches = request.tools?.some((tool) => tool.type?.startsWith('web_search_')) && plan.reply.kind === 'text';
    const search = searches ? searchNatively(lastUserTextOf(request)) : undefined;
    return { json: JSON.stringify(anthropicMessage(plan, request.model, identity, search)) };
  }
  const lookup = await recordings.load(request.model.slice(FIXTURE_MODEL_PREFIX.length));
  if (!lookup.ok) return { error: AnthropicErrors.modelNotFound(request.model, lookup.reason) };
  const { events, json } = lookup.fixture;
  if (request.stream) return events ? { events } : { error: AnthropicErrors.modelNotFound(request.model, 'no streaming recording') };
  return json !== undefined ? { json } : { error: AnthropicErrors.modelNotFound(request.model, 'no non-streaming recording') };
}
