import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, readBody, type SimContext, signalOnClose } from '../chat-route.js';
import { deliverJson, deliverStream, pause, type SseFraming, sendJson } from '../deliver.js';
import { FIXTURE_MODEL_PREFIX, FixtureLibrary, type RecordingProtocol } from '../fixtures.js';
import { type Knobs, parseKnobs } from '../knobs.js';
import { planReply } from '../reply.js';
import { searchNatively } from '../search/native-search.js';
import { messageText } from '../tokens.js';
import { generateContentEvents, generateContentResponse, newResponseId, thoughtAbout } from './generate-content-responses.js';
import { type GoogleError, GoogleErrors } from './google-errors.js';
import { readGenerateContentRequest, type SimGenerateContentRequest } from './read-generate-content-request.js';

/** `POST /v1beta/models/{model}:generateContent` or `:streamGenerateContent`; the model may hold `/` (`fixture:gemini/…`) and knobs. */
const GEMINI_PATH = /^\/v1beta\/models\/(.+):(generateContent|streamGenerateContent)$/;

export interface GeminiCall {
  model: string;
  stream: boolean;
}

/** The model and method a request path names, or undefined for any other path. */
export function matchGeminiCall(path: string): GeminiCall | undefined {
  const match = GEMINI_PATH.exec(path);
  if (!match) return undefined;
  return { model: decodeURIComponent(match[1] ?? ''), stream: match[2] === 'streamGenerateContent' };
}

const sseFrame = (data: string) => `data: ${data}\r\n\r\n`;

/** Gemini's SSE: data-only events ended by CRLF blank lines; the end of the body ends the stream. */
const GEMINI_FRAMING: SseFraming = {
  frame: sseFrame,
  end: '',
  errorEnd: sseFrame(JSON.stringify(GoogleErrors.internal().body)),
};

/** Gemini recordings: responses (with candidates, or the promptFeedback of a blocked prompt) and error bodies. */
const GEMINI_RECORDINGS: RecordingProtocol = {
  name: 'Gemini',
  isPayload(text) {
    const json = parseJson(text);
    if (!json.ok || typeof json.value !== 'object' || json.value === null) return false;
    const payload = json.value as Record<string, unknown>;
    return Array.isArray(payload.candidates) || payload.promptFeedback !== undefined || payload.error !== undefined;
  },
};

/** One library per folder, beside the simulator's Chat Completions one; recordings are read once. */
const libraries = new Map<string, FixtureLibrary>();
function recordingsIn(dir: string): FixtureLibrary {
  let library = libraries.get(dir);
  if (!library) {
    library = new FixtureLibrary(dir, GEMINI_RECORDINGS);
    libraries.set(dir, library);
  }
  return library;
}

type Answer = { events: string[] } | { json: string } | { error: GoogleError };

const sendGoogleError = (res: ServerResponse, error: GoogleError) => sendJson(res, error.status, JSON.stringify(error.body));

/**
 * The Gemini API's generateContent and streamGenerateContent?alt=sse, in
 * Google's order of checks: the key (x-goog-api-key or ?key=), the JSON,
 * then the request; the knobs in the model name or the x-sim-* headers come
 * between the JSON and the request checks, as on the OpenAI side. Replies
 * are planned like the OpenAI side's (function calls when tools are given
 * and the user asks about the weather), plus a thought summary when thinking
 * is asked for with includeThoughts.
 */
export async function handleGenerateContent(
  req: IncomingMessage,
  res: ServerResponse,
  context: SimContext,
  call: GeminiCall,
): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://sim').searchParams;
  const raw = await readBody(req);
  const body = parseJson(raw);
  context.stats.recordChatRequest(body.ok ? body.value : raw, req.headers);
  const key = req.headers['x-goog-api-key'] ?? query.get('key');
  if (!key) return sendGoogleError(res, GoogleErrors.missingApiKey());
  if (!body.ok) return sendGoogleError(res, GoogleErrors.invalidJson('Unexpected token.'));
  if (call.stream && query.get('alt') !== 'sse') {
    return sendGoogleError(res, GoogleErrors.invalidArgument('sim: streamGenerateContent is simulated with alt=sse only'));
  }

  const parsed = parseKnobs(call.model, req.headers);
  if (!parsed.ok) return sendGoogleError(res, GoogleErrors.invalidArgument(parsed.message));
  const { knobs } = parsed;
  const model = parsed.model ?? call.model;
  if (knobs.hang) return; // never answer: the socket stays open until the client gives up or the simulator closes

  const signal = signalOnClose(res);
  await pause(knobs.latencyMs, signal);
  if (knobs.status !== undefined) return sendGoogleError(res, GoogleErrors.simulatedStatus(knobs.status, model, knobs.retryAfterSeconds));
  const read = readGenerateContentRequest(body.value, model, call.stream);
  if (!read.ok) return sendGoogleError(res, read.error);

  const answer = model.startsWith(FIXTURE_MODEL_PREFIX)
    ? await replay(recordingsIn(context.fixtures.dir), model, call.stream)
    : simulate(read.request, knobs);
  if ('error' in answer) return sendGoogleError(res, answer.error);
  return 'events' in answer
    ? deliverStream(res, answer.events, knobs, signal, GEMINI_FRAMING)
    : deliverJson(res, answer.json, knobs, signal);
}

function simulate(request: SimGenerateContentRequest, knobs: Knobs): Answer {
  const { chat } = request;
  const lastUser = chat.messages.findLast((message) => message.role === 'user');
  const reply = planReply(chat, knobs.chunks);
  // Grounding with Google Search, non-streaming: the simulated model searches the simulated web first.
  const search =
    request.searches && !chat.stream && reply.kind === 'text' && lastUser
      ? searchNatively(messageText(lastUser.content).trim())
      : undefined;
  const answer = {
    reply,
    model: chat.model,
    responseId: newResponseId(),
    ...(request.thinks ? { thought: thoughtAbout(lastUser ? messageText(lastUser.content) : '', request.includeThoughts) } : {}),
    ...(search ? { search } : {}),
  };
  return chat.stream ? { events: generateContentEvents(answer) } : { json: JSON.stringify(generateContentResponse(answer)) };
}

/** A recorded answer; a recorded error body is answered with its own status, streaming or not. */
async function replay(library: FixtureLibrary, model: string, stream: boolean): Promise<Answer> {
  const lookup = await library.load(model.slice(FIXTURE_MODEL_PREFIX.length));
  if (!lookup.ok) return { error: GoogleErrors.modelNotFound(model, lookup.reason) };
  const { events, json } = lookup.fixture;
  const recorded = json === undefined ? undefined : (JSON.parse(json) as { error?: { code?: unknown } });
  if (json !== undefined && typeof recorded?.error?.code === 'number') {
    return { error: { status: recorded.error.code, body: recorded as GoogleError['body'] } };
  }
  if (stream) return events ? { events } : { error: GoogleErrors.modelNotFound(model, 'no streaming recording') };
  return json !== undefined ? { json } : { error: GoogleErrors.modelNotFound(model, 'no non-streaming recording') };
}
