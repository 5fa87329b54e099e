import type { CheckedUsage } from '../accounting/check-usage.js';
import type { Endpoint } from '../catalog/types.js';
import { adapterFor } from '../chat/adapter-for.js';
import type { AttemptOutcome } from '../chat/attempt-outcome.js';
import { checkChatUsage } from '../chat/check-chat-usage.js';
import { withLoopEntry } from '../chat/complete-chat.js';
import { AnswerText } from '../chat/estimate-tokens.js';
import { replay } from '../chat/replay.js';
import { runAttempts } from '../chat/run-attempts.js';
import type { ChatServices } from '../chat/run-services.js';
import { attemptOptions, noteServed } from '../chat/serve-run.js';
import { serviceMetadata } from '../chat/service-metadata.js';
import { type RunEnd, runError, settleRun } from '../chat/settle-run.js';
import { failUnservedStream, startKeepAlive, streamBreak } from '../chat/stream-chat.js';
import { streamWithRunTools } from '../chat/stream-with-run-tools.js';
import { withWebSearches } from '../chat/sum-usage.js';
import type { SseWriter } from '../http/sse-writer.js';
import type { StreamedLoopEnd } from '../plugins/server-tools/stream-tool-loop.js';
import type { ChatRequest, Usage } from '../protocol/chat.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import { type ResponseObject, type ResponseStreamEvent, TERMINAL_RESPONSE_EVENTS } from '../protocol/responses.js';
import { UpstreamError } from '../protocol/upstream.js';
import { convertOpenAIResponsesUsage } from '../providers/openai/convert-openai-responses-usage.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { includesCodeOutputs } from './code-interpreter-call.js';
import { orChat, type ResponsesCall } from './complete-responses.js';
import { ChatChunksToResponseEvents } from './convert-chat-chunks-to-response-events.js';
import { responseShell, responsesUsage } from './convert-chat-to-response.js';
import { ownResponse } from './own-response.js';
import { eventText, generatedTextOf, newItemId, responseFinishReason } from './read-response.js';

/** An attempt's stream once its first event is in hand: the events (that one included), and the usage as the upstream reported it. */
interface OpenedEvents {
  events: AsyncIterator<ResponseStreamEvent>;
  /** The canonical usage of a translated stream (its chunks'); a native stream's is read from its terminal event. */
  usage(): Usage | undefined;
  /** The upstream's id of a translated stream (its chunks'); a native stream's is its Response's. */
  upstreamId(): string | undefined;
  /** Set by a server-tool loop when its last step ends. */
  loop: { end?: StreamedLoopEnd };
}

/** A Responses error code for a gateway error's status, as OpenAI's `response.failed` names them. */
const failureCode = (error: GatewayError) =>
  error.statusCode === 429 ? 'rate_limit_exceeded' : error.statusCode >= 500 ? 'server_error' : String(error.statusCode);

/**
 * OpenAI's `error` event, as its stream sends one before `response.failed`
 * (see the recorded openai-error fixture): the documented fields, and the
 * `error` object the API nests them in, on which the openai SDK throws (so an
 * agent's run fails rather than taking the failed Response as an empty turn).
 */
function errorEvent(error: GatewayError, sequence: number): string {
  const code = failureCode(error);
  return JSON.stringify({
    type: 'error',
    code,
    message: error.message,
    param: null,
    sequence_number: sequence,
    error: { type: code, code, message: error.message, param: null },
  });
}

/**
 * A streamed POST /responses. As for chat, nothing but keep-alive comments
 * reaches the client until an attempt's first event is in hand, so a
 * failure before it falls back to the next endpoint. A native endpoint's
 * typed events are relayed as they come (the Response's id and model made
 * the gateway's); another's chat chunks become typed events
 * (ChatChunksToResponseEvents). The terminal event is held back until the
 * ledger row is written, then sent with the checked usage and its cost; a
 * failure after the start ends the stream with an `error` event and
 * `response.failed`, as OpenAI's does.
 */
export async function streamResponses(
  services: ChatServices,
  { run, body, native }: ResponsesCall,
  sse: SseWriter,
  signal: AbortSignal,
  respondWithError: (error: unknown) => void,
): Promise<void> {
  const keepAlive = startKeepAlive(sse, services.keepAliveAfterMs);
  let served: { result: OpenedEvents; attempt: Attempt<Endpoint>; outcomes: AttemptOutcome[] };
  try {
    served = await runAttempts(
      attemptOptions(services, run, signal, async (attempt): Promise<OpenedEvents> => {
        const { adapter, target } = adapterFor(services, attempt);
        const context = { signal, endUserId: run.endUserId };
        const upstream = native && adapter.responses ? await adapter.responses.stream(body, target, context).catch(orChat) : undefined;
        if (upstream) {
          const events = upstream[Symbol.asyncIterator]();
          return { events: replay(await events.next(), events), usage: () => undefined, upstreamId: () => undefined, loop: {} };
        }
        const open = async (request: ChatRequest) => (await adapter.stream(request, target, context))[Symbol.asyncIterator]();
        // The gateway's code runs are shown between the model's steps, as code_interpreter_call items.
        const { chunks, loop } = await streamWithRunTools(services, run, attempt, open, signal, (ran) => ({ ran }));
        const shell = responseShell(body, { id: run.id, model: attempt.modelId, createdAt: Math.floor(run.startedAt / 1000) });
        const converter = new ChatChunksToResponseEvents(shell, newItemId, includesCodeOutputs(body));
        const now = () => Math.floor(services.clock().getTime() / 1000);
        const events = (async function* () {
          try {
            yield* converter.start();
            for (let next = await chunks.next(); !next.done; next = await chunks.next())
              yield* 'ran' in next.value ? converter.tool(next.value.ran) : converter.push(next.value);
            yield* converter.finish(now());
          } finally {
            await chunks.return?.();
          }
        })();
        return { events, usage: () => converter.usage, upstreamId: () => converter.upstreamId, loop };
      }),
    );
  } catch (error) {
    keepAlive.stop();
    // Keep-alive comments went out: the failure is the stream's own error event.
    return failUnservedStream(services, run, error, { sse, signal, respondWithError }, (failure) =>
      sse.event('error', errorEvent(failure, 0)),
    );
  }
  keepAlive.stop();
  noteServed(services, run, served.attempt);
  await relay(services, { run, body, native }, served, sse, signal);
}

async function relay(
  services: ChatServices,
  { run, body }: ResponsesCall,
  served: { result: OpenedEvents; attempt: Attempt<Endpoint>; outcomes: AttemptOutcome[] },
  sse: SseWriter,
  signal: AbortSignal,
): Promise<void> {
  const { attempt, outcomes } = served;
  const { events, loop } = served.result;
  // The run as recorded, with its server-tool loop's entry once it ended; and what its tools' own rows cost.
  const finished = () => withLoopEntry(run, loop.end?.entry);
  const innerCost = () => (loop.end?.innerCost ?? 0) + (run.innerCost ?? 0);
  const answer = new AnswerText();
  const ttftMs = services.clock().getTime() - run.startedAt;
  let latest: ResponseObject | undefined;
  let terminal: ResponseStreamEvent | undefined;
  let sequence = -1;
  let upstreamId: string | null = null;

  const check = async (): Promise<CheckedUsage> => {
    const reported = served.result.usage() ?? convertOpenAIResponsesUsage(terminal?.response?.usage);
    const checked = await checkChatUsage(reported, run.request, attempt.endpoint, answer);
    return { usage: withWebSearches(checked.usage, run.webSearches), estimated: checked.estimated };
  };
  const end = (over: Partial<RunEnd>, usage: CheckedUsage): RunEnd => ({
    status: 'success',
    streamed: true,
    attempt,
    outcomes,
    usage: usage.usage,
    usageEstimated: usage.estimated,
    finishReason: terminal?.response ? responseFinishReason(terminal.response) : null,
    serviceTier: terminal?.response?.service_tier ?? null,
    upstreamId: served.result.upstreamId() ?? upstreamId,
    ttftMs,
    ...over,
  });
  const identity = { id: run.id, model: attempt.modelId };
  // The Response in an event is the gateway's: its generation id, the model that served, and every field the reference requires.
  const own = (event: ResponseStreamEvent): ResponseStreamEvent => {
    sequence = event.sequence_number;
    if (!event.response) return event;
    upstreamId ??= event.response.id;
    latest = ownResponse(event.response, identity, body);
    return { ...event, response: latest };
  };

  try {
    for (let next = await events.next(); !next.done; next = await events.next()) {
      if (sse.closed) throw new UpstreamError('aborted', 'the client went away');
      const event = own(next.value);
      eventText(event, answer);
      if (TERMINAL_RESPONSE_EVENTS.has(event.type)) terminal = event;
      else await sse.event(event.type, JSON.stringify(event));
    }
    if (!terminal) throw new UpstreamError('malformed', 'the stream ended without its terminal event');
  } catch (error) {
    const usage = await check();
    const broke = streamBreak(error, signal, sse, attempt.endpoint.provider);
    if (broke.stopped) await events.return?.();
    if (!broke.failure) {
      await settleRun(services, finished(), end({ status: 'cancelled' }, usage));
      return sse.end();
    }
    const { failure } = broke;
    await settleRun(services, finished(), end({ status: 'error', finishReason: 'error', error: runError(failure) }, usage));
    const shell = latest ?? ownResponse(responseShell(body, { ...identity, createdAt: Math.floor(run.startedAt / 1000) }), identity, body);
    const response: ResponseObject = { ...shell, status: 'failed', error: { code: failureCode(failure), message: failure.message } };
    await sse.event('error', errorEvent(failure, sequence + 1));
    await sse.event('response.failed', JSON.stringify({ type: 'response.failed', sequence_number: sequence + 2, response }));
    return sse.end();
  }

  const usage = await check();
  const response = terminal.response as ResponseObject;
  const { cost } = await settleRun(services, finished(), end(run.storedInput ? { output: generatedTextOf(response.output) } : {}, usage));
  const final: ResponseStreamEvent = {
    ...terminal,
    response: {
      ...response,
      usage: { ...responsesUsage(usage.usage), cost: cost + innerCost() },
      ...(run.wantsMetadata ? { service_metadata: serviceMetadata({ ...finished().routing, attempts: outcomes }) } : {}),
    },
  };
  await sse.event(final.type, JSON.stringify(final));
  sse.end();
}
