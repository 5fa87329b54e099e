import type { Endpoint } from '../catalog/types.js';
import { adapterFor } from '../chat/adapter-for.js';
import type { AttemptOutcome } from '../chat/attempt-outcome.js';
import { replay } from '../chat/replay.js';
import { runAttempts } from '../chat/run-attempts.js';
import { attemptOptions, failRun, noteServed } from '../chat/serve-run.js';
import { runError, settleRun } from '../chat/settle-run.js';
import { streamBreak } from '../chat/stream-chat.js';
import type { SseWriter } from '../http/sse-writer.js';
import type { TranscriptionStream, TranscriptionStreamEvent, TranscriptTextDone } from '../protocol/transcription.js';
import { UpstreamError } from '../protocol/upstream.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { billableSeconds } from './transcription-endpoints.js';
import { type ServedTranscription, settleTranscription, type TranscriptionRun, type TranscriptionServices } from './transcription-run.js';
import { checkTranscriptionUsage, statedUsage } from './transcription-usage.js';

type Served = { result: TranscriptionStream; attempt: Attempt<Endpoint>; outcomes: AttemptOutcome[] };

/**
 * A transcription asked with `stream`: the plan tried as chat's streams are,
 * each attempt up to the provider's first event, so that a failure until
 * then falls back and is answered as a plain error. A provider that answers
 * whole (whisper-1 ignores `stream`, as OpenAI says) is answered whole: the
 * ServedTranscription is returned. Otherwise its events are relayed on
 * `openSse()` and undefined returned: the deltas as they come, then the done
 * event with the checked usage and its cost, after the ledger row; a failure
 * after the first event ends the stream with an `{"error"}` event, billed
 * for what was delivered.
 */
export async function streamTranscription(
  services: TranscriptionServices,
  run: TranscriptionRun,
  signal: AbortSignal,
  openSse: () => SseWriter,
): Promise<ServedTranscription | undefined> {
  let served: Served;
  try {
    served = await runAttempts(
      attemptOptions(services, run, signal, async (attempt): Promise<TranscriptionStream> => {
        const { adapter, target } = adapterFor(services, attempt);
        const context = { signal, endUserId: run.endUserId };
        if (!adapter.stream) return { kind: 'whole', answer: await adapter.transcribe(run.request, target, context) };
        const opened = await adapter.stream(run.request, target, context);
        if (opened.kind === 'whole') return opened;
        // The first event before anything reaches the client: until then a failure can still fall back.
        const first = await opened.events.next();
        return { kind: 'events', events: replay(first, opened.events) };
      }),
    );
  } catch (error) {
    throw await failRun(services, run, error, [], true);
  }
  noteServed(services, run, served.attempt);
  const { result, attempt, outcomes } = served;
  if (result.kind === 'whole') return settleTranscription(services, run, { result: result.answer, attempt, outcomes });
  await relay(services, run, { events: result.events, attempt, outcomes }, openSse(), signal);
  return undefined;
}

async function relay(
  services: TranscriptionServices,
  run: TranscriptionRun,
  {
    events,
    attempt,
    outcomes,
  }: { events: AsyncIterator<TranscriptionStreamEvent>; attempt: Attempt<Endpoint>; outcomes: AttemptOutcome[] },
  sse: SseWriter,
  signal: AbortSignal,
): Promise<void> {
  const ttftMs = services.clock().getTime() - run.startedAt;
  const bound = billableSeconds(attempt.endpoint, run.request.file.bytes.length);
  const provider = attempt.endpoint.provider;
  const delivered: string[] = [];
  const end = { streamed: true, attempt, outcomes, ttftMs } as const;
  let done: TranscriptTextDone | undefined;
  try {
    for (let next = await events.next(); !next.done; next = await events.next()) {
      if (sse.closed) throw new UpstreamError('aborted', 'the client went away');
      const event = next.value;
      if (event.type === 'transcript.text.done') {
        done = event;
        break;
      }
      // A diarized segment repeats text its deltas carried: only the deltas count as delivered.
      if (event.type === 'transcript.text.delta') delivered.push(event.delta);
      await sse.data(JSON.stringify(event));
    }
    if (!done) throw new UpstreamError('malformed', 'upstream ended the transcript without its transcript.text.done event');
  } catch (error) {
    // No usage came: what the audio could be billed, as checkTranscriptionUsage bounds it.
    const billed = checkTranscriptionUsage({ text: delivered.join('') }, bound);
    const usage = { usage: billed.usage, usageEstimated: billed.estimated, seconds: billed.seconds };
    const broke = streamBreak(error, signal, sse, provider);
    if (broke.stopped) await events.return?.();
    if (!broke.failure) {
      await settleRun(services, run, { ...end, ...usage, status: 'cancelled' });
      return sse.end();
    }
    const { failure } = broke;
    await settleRun(services, run, { ...end, ...usage, status: 'error', error: runError(failure) });
    const metadata = failure.metadata ? { metadata: failure.metadata } : {};
    await sse.data(JSON.stringify({ error: { code: failure.statusCode, message: failure.message, ...metadata } }));
    return sse.end();
  }
  const billed = checkTranscriptionUsage(done, bound);
  const { cost } = await settleRun(services, run, {
    ...end,
    status: 'success',
    usage: billed.usage,
    usageEstimated: billed.estimated,
    seconds: billed.seconds,
  });
  await sse.data(JSON.stringify({ ...done, usage: statedUsage(billed, cost) }));
  sse.end();
}
