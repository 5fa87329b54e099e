import type { CheckedUsage } from '../accounting/check-usage.js';
import { computeCost } from '../accounting/compute-cost.js';
import type { Endpoint } from '../catalog/types.js';
import { Errors } from '../http/errors.js';
import { SHUTTING_DOWN } from '../http/shutdown.js';
import type { SseWriter } from '../http/sse-writer.js';
import type { StreamedLoopEnd } from '../plugins/server-tools/stream-tool-loop.js';
import { urlCitations } from '../plugins/web/url-citations.js';
import type { ChatCompletionChunk, ChatRequest, FinishReason, Usage } from '../protocol/chat.js';
import { type GatewayError, isGatewayError } from '../protocol/gateway-error.js';
import type { MessagesStreamEvent } from '../protocol/messages.js';
import { UpstreamError } from '../protocol/upstream.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { adapterFor } from './adapter-for.js';
import type { AttemptOutcome } from './attempt-outcome.js';
import { checkChatUsage } from './check-chat-usage.js';
import { serverToolsOf, withLoopEntry } from './complete-chat.js';
import { AnswerText } from './estimate-tokens.js';
import { StreamedText } from './generation-content.js';
import { nativeMessagesOf } from './native-messages.js';
import { replay } from './replay.js';
import type { ChatRun, RoutedRequest, Run } from './run.js';
import { runAttempts } from './run-attempts.js';
import type { ChatServices } from './run-services.js';
import { attemptOptions, failRun, noteServed } from './serve-run.js';
import { serviceMetadata } from './service-metadata.js';
import { type RunEnd, runError, settleRun } from './settle-run.js';
import { chatChunksOutput, type StreamIdentity, type StreamOutput } from './stream-output.js';
import { streamWithRunTools } from './stream-with-run-tools.js';
import { withWebSearches } from './sum-usage.js';

/** One piece of a stream: a canonical chunk, and from an untranslated Messages stream the event it was read from. */
interface Relayed {
  chunk?: ChatCompletionChunk;
  event?: MessagesStreamEvent;
}

interface OpenedStream {
  /** The pieces to relay, the first one (already received) included. */
  chunks: AsyncIterator<Relayed>;
  upstreamBody: unknown;
  /** Set by a server-tool loop when its last step ends. */
  loop: { end?: StreamedLoopEnd };
}

/** Each chunk as a piece to relay. */
function relayed(chunks: AsyncIterator<ChatCompletionChunk>): AsyncIterator<Relayed> {
  return {
    next: async () => {
      const next = await chunks.next();
      return next.done ? next : { done: false, value: { chunk: next.value } };
    },
    return: async (value?: unknown) => {
      await chunks.return?.(value);
      return { done: true, value: undefined };
    },
  };
}

/** What the relay saw go by: enough to bill and record the run however it ends. */
class StreamTally {
  /** The last usage the upstream reported, as checked. */
  usage: CheckedUsage | undefined;
  finishReason: FinishReason | null = null;
  nativeFinishReason: string | null = null;
  serviceTier: string | null = null;
  upstreamId: string | null = null;
  readonly answer = new AnswerText();

  see(chunk: ChatCompletionChunk): void {
    this.upstreamId ??= chunk.id;
    if (chunk.service_tier) this.serviceTier = chunk.service_tier;
    for (const choice of chunk.choices) {
      this.answer.add(choice.delta.content);
      this.answer.add(choice.delta.reasoning);
      this.answer.add(choice.delta.refusal);
      for (const call of choice.delta.tool_calls ?? []) {
        if (call.id !== undefined) this.answer.addPiece();
        this.answer.add(call.function?.name);
        this.answer.add(call.function?.arguments);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      if (choice.native_finish_reason) this.nativeFinishReason = choice.native_finish_reason;
    }
  }
}

/**
 * A streaming chat. Until the first upstream chunk arrives nothing but
 * keep-alive comments reaches the client, so every failure up to then can
 * still fall back; after it, a failure ends the stream with an error chunk.
 * The ledger row is written before `[DONE]`. `output` speaks the client's
 * protocol: chat-completions chunks unless told otherwise (POST /messages).
 */
/**
 * How a stream that broke after its first byte ends: cancelled, without a
 * failure (the client left, or its upstream call was aborted), or failed with
 * what the client is told: the shutdown's error (a stop ends a stream as a
 * failure, billed for what it delivered), the gateway's own refusal as it is
 * (a server-tool step its reservation cannot cover), or the upstream's
 * failure. `stopped` when the upstream's stream must be closed.
 */
export function streamBreak(
  error: unknown,
  signal: AbortSignal,
  sse: Pick<SseWriter, 'closed'>,
  provider: string,
): { stopped: boolean; failure?: GatewayError } {
  if (signal.reason === SHUTTING_DOWN && !sse.closed) return { stopped: true, failure: Errors.shuttingDown() };
  if (signal.aborted || sse.closed || (error instanceof UpstreamError && error.failure === 'aborted')) return { stopped: true };
  if (isGatewayError(error)) return { stopped: false, failure: error };
  const why = error instanceof Error ? error.message : 'the stream broke';
  return { stopped: false, failure: Errors.upstreamFailed({ provider_name: provider }, provider, `mid-stream: ${why}`) };
}

/** Where a stream answers: its events, the request's signal, and how an error is answered before any byte went out. */
export interface StreamClient {
  sse: SseWriter;
  signal: AbortSignal;
  respondWithError: (error: unknown) => void;
}

/**
 * A stream none of whose attempts served: the failure recorded, then told as
 * an error answer when nothing was sent yet, or, once keep-alive comments
 * went out, as the stream's last event (`fail`, in the client's protocol).
 * A client that left is told nothing.
 */
export async function failUnservedStream(
  services: Pick<ChatServices, 'ledger' | 'clock'>,
  run: Run<RoutedRequest>,
  error: unknown,
  { sse, signal, respondWithError }: StreamClient,
  fail: (failure: GatewayError) => Promise<void>,
): Promise<void> {
  const recorded = await failRun(services, run, error, [], true);
  // Stopped by the gateway's shutdown, not its client: the client is still there to be told.
  const failure = signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : recorded;
  if (signal.aborted && failure === recorded) return sse.end();
  if (!sse.started) return respondWithError(failure);
  await fail(isGatewayError(failure) ? failure : Errors.internal());
  return sse.end();
}

export async function streamChat(
  services: ChatServices,
  run: ChatRun,
  sse: SseWriter,
  signal: AbortSignal,
  respondWithError: (error: unknown) => void,
  output: StreamOutput = chatChunksOutput(sse),
): Promise<void> {
  const keepAlive = startKeepAlive(sse, services.keepAliveAfterMs);
  const serverTools = serverToolsOf(services, run);
  let served: { result: OpenedStream; attempt: Attempt<Endpoint>; outcomes: AttemptOutcome[] };
  try {
    served = await runAttempts(
      attemptOptions(services, run, signal, async (attempt): Promise<OpenedStream> => {
        const { adapter, target } = adapterFor(services, attempt);
        const native = nativeMessagesOf(run, adapter, target, serverTools.length);
        if (native) {
          const events = (await native.calls.stream(native.request.body, target, native.context({ signal, endUserId: run.endUserId })))[
            Symbol.asyncIterator
          ]();
          // The first event before anything reaches the client, as below.
          const first = await events.next();
          return { chunks: replay(first, events), upstreamBody: undefined, loop: {} };
        }
        const open = async (request: ChatRequest) =>
          (await adapter.stream(request, target, { signal, endUserId: run.endUserId }))[Symbol.asyncIterator]();
        const { chunks, request, loop } = await streamWithRunTools(services, run, attempt, open, signal);
        const upstreamBody = run.request.debug?.echo_upstream_body
          ? adapter.buildRequestBody(request, target, { stream: true, endUserId: run.endUserId })
          : undefined;
        return { chunks: relayed(chunks), upstreamBody, loop };
      }),
    );
  } catch (error) {
    keepAlive.stop();
    const identity = { id: run.id, created: Math.floor(run.startedAt / 1000), model: run.attempts[0]?.modelId ?? '', provider: undefined };
    return failUnservedStream(services, run, error, { sse, signal, respondWithError }, (failure) => output.fail(failure, identity));
  }
  keepAlive.stop();
  noteServed(services, run, served.attempt);
  await relay(services, run, served, sse, signal, output);
}

async function relay(
  services: ChatServices,
  run: ChatRun,
  served: { result: OpenedStream; attempt: Attempt<Endpoint>; outcomes: AttemptOutcome[] },
  sse: SseWriter,
  signal: AbortSignal,
  output: StreamOutput,
): Promise<void> {
  const { attempt, outcomes } = served;
  const { chunks, upstreamBody, loop } = served.result;
  const tally = new StreamTally();
  // The answer's text, kept only for a run that stores its content.
  const text = run.storedInput ? new StreamedText() : undefined;
  // The run as recorded: with the server-tool loop's entry once it ended.
  const finished = (): ChatRun => withLoopEntry(run, loop.end?.entry);
  // What inner calls (fusion's) cost on their own rows: part of this answer's cost.
  const innerCost = () => (loop.end?.innerCost ?? 0) + (run.innerCost ?? 0);
  const ttftMs = services.clock().getTime() - run.startedAt;
  const created = Math.floor(run.startedAt / 1000);
  const provider = attempt.endpoint.provider;
  const identity: StreamIdentity = { id: run.id, created, model: attempt.modelId, provider };
  // service_metadata as the run stands now: its attempts, and the server-tool loop's entry once it ended.
  const metadata = () => serviceMetadata({ ...finished().routing, attempts: outcomes });
  // The usage to bill: what the upstream reported, checked against what it sent, with the web plugin's searches.
  const check = async (reported: Usage | undefined): Promise<CheckedUsage> => {
    const checked = await checkChatUsage(reported, run.request, attempt.endpoint, tally.answer);
    return { usage: withWebSearches(checked.usage, run.webSearches), estimated: checked.estimated };
  };
  // However the stream ends: the last usage reported, or the local count of what was sent and received.
  const usageSoFar = async () => tally.usage ?? (await check(undefined));
  const end = (over: Partial<RunEnd>, usage: CheckedUsage): RunEnd => ({
    status: 'success',
    streamed: true,
    attempt,
    outcomes,
    usage: usage.usage,
    usageEstimated: usage.estimated,
    finishReason: tally.finishReason,
    nativeFinishReason: tally.nativeFinishReason,
    serviceTier: tally.serviceTier,
    upstreamId: tally.upstreamId,
    ttftMs,
    ...(text ? { output: text.text() } : {}),
    ...over,
  });

  if (upstreamBody !== undefined) {
    const echo = {
      id: run.id,
      object: 'chat.completion.chunk',
      created,
      model: attempt.modelId,
      provider,
      choices: [],
      debug: { echo_upstream_body: upstreamBody },
    };
    await output.send(echo as ChatCompletionChunk, undefined, identity);
  }

  let sentUsage = false;
  // The web plugin's citations point into the whole answer: its text is kept (as text, the stream is not held back).
  const answer: string[] | undefined = run.citations ? [] : undefined;
  const send = async ({ chunk, event }: Relayed) => {
    if (chunk) await stamp(chunk);
    await output.send(chunk, event, identity);
  };
  const stamp = async (chunk: ChatCompletionChunk) => {
    tally.see(chunk);
    text?.see(chunk);
    if (answer) for (const choice of chunk.choices) if (choice.index === 0 && choice.delta.content) answer.push(choice.delta.content);
    chunk.id = run.id;
    chunk.model = attempt.modelId;
    chunk.provider = provider;
    if (chunk.system_fingerprint == null) delete chunk.system_fingerprint;
    if (chunk.usage) {
      sentUsage = true;
      tally.usage = await check(chunk.usage);
      chunk.usage = {
        ...tally.usage.usage,
        cost: computeCost(attempt.endpoint.pricing, tally.usage.usage, new Date(run.startedAt)).total + innerCost(),
      };
      if (run.wantsMetadata) Object.assign(chunk, { service_metadata: metadata() });
    }
  };

  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      if (sse.closed) throw new UpstreamError('aborted', 'the client went away');
      await send(next.value);
    }
  } catch (error) {
    const usage = await usageSoFar();
    const broke = streamBreak(error, signal, sse, provider);
    if (broke.stopped) await chunks.return?.();
    if (!broke.failure) {
      await settleRun(services, finished(), end({ status: 'cancelled' }, usage));
      return sse.end();
    }
    const { failure } = broke;
    await settleRun(services, finished(), end({ status: 'error', finishReason: 'error', error: runError(failure) }, usage));
    await output.fail(failure, identity);
    return sse.end();
  }

  if (answer && run.citations) {
    const annotations = urlCitations(answer.join(''), run.citations);
    const annotated = {
      id: run.id,
      object: 'chat.completion.chunk',
      created,
      model: attempt.modelId,
      provider,
      choices: [{ index: 0, delta: { annotations }, finish_reason: null }],
    };
    await output.send(annotated as ChatCompletionChunk, undefined, identity);
  }
  const usage = await usageSoFar();
  const { cost } = await settleRun(services, finished(), end({}, usage));
  await output.end(
    {
      usage: { ...usage.usage, cost: cost + innerCost() },
      usageSent: sentUsage,
      ...(run.wantsMetadata ? { serviceMetadata: metadata() } : {}),
    },
    identity,
  );
  sse.end();
}

/** SSE comments while the first upstream byte is awaited; nothing is sent if it comes quickly. */
export function startKeepAlive(sse: SseWriter, afterMs: number): { stop(): void } {
  let interval: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    void sse.comment('keep-alive');
    interval = setInterval(() => void sse.comment('keep-alive'), afterMs);
  }, afterMs);
  return {
    stop() {
      clearTimeout(timer);
      clearInterval(interval);
    },
  };
}
