import type { Endpoint } from '../catalog/types.js';
import { adapterFor } from '../chat/adapter-for.js';
import type { AttemptOutcome } from '../chat/attempt-outcome.js';
import { replay } from '../chat/replay.js';
import { runError, settleRun } from '../chat/settle-run.js';
import { loadTokenCounter } from '../plugins/shared/token-counter.js';
import type { UpstreamVideoContent } from '../protocol/adapters.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import type { SpeechStreamEvent } from '../protocol/speech.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { speechEventsOfAudio } from './speech-events-of-audio.js';
import type { SpeechRun, SpeechServices } from './speech-services.js';
import { characters, checkSpeechUsage, countedSpeechUsage } from './speech-usage.js';

/** A speech whose provider streams events (speech.audio.delta … speech.audio.done), as it was served. */
export interface SpeechEventStream {
  events: AsyncIterator<SpeechStreamEvent>;
  attempt: Attempt<Endpoint>;
  outcomes: AttemptOutcome[];
  /** From the run's start to the first event. */
  ttftMs: number;
  /** Built from the raw audio of a server that ignored `stream_format`: it reports no tokens, so the gateway counts the text's. */
  fromAudio: boolean;
}

/**
 * Opens an attempt's event stream and reads its first event, so that a
 * provider that fails before it is a failed attempt and the next one is
 * tried; the events come back whole, the first one included. A server that
 * answered raw audio instead gives that audio (the adapter's SpeechEventsAnswer).
 */
export function openSpeechEvents(services: SpeechServices, run: SpeechRun, signal: AbortSignal) {
  return async (attempt: Attempt<Endpoint>): Promise<AsyncIterator<SpeechStreamEvent> | UpstreamVideoContent> => {
    const { adapter, target } = adapterFor(services, attempt);
    const answer = await adapter.speakEvents(run.request, target, { signal, endUserId: run.endUserId });
    if ('body' in answer) return answer;
    const events = answer[Symbol.asyncIterator]();
    return replay(await events.next(), events);
  };
}

/**
 * A served attempt's events as the relays take them (built from its audio
 * when it answered raw audio), timed from the run's start to now (its first
 * event, or its audio's headers, came).
 */
export function servedSpeechEvents(
  services: SpeechServices,
  run: SpeechRun,
  {
    result,
    attempt,
    outcomes,
  }: { result: AsyncIterator<SpeechStreamEvent> | UpstreamVideoContent; attempt: Attempt<Endpoint>; outcomes: AttemptOutcome[] },
): SpeechEventStream {
  const fromAudio = 'body' in result;
  const events = fromAudio ? speechEventsOfAudio(result.body) : result;
  return { events, attempt, outcomes, ttftMs: services.clock().getTime() - run.startedAt, fromAudio };
}

/** The tokens of a speech whose upstream reported none: its text's, as the gateway counts them (speech-usage.ts). */
export const countedUsage = async (run: SpeechRun) => countedSpeechUsage(run.request, await loadTokenCounter());

const billedOf = (run: SpeechRun, { attempt, outcomes, ttftMs }: SpeechEventStream) =>
  ({ status: 'success', streamed: true, attempt, outcomes, ttftMs, characters: characters(run.request) }) as const;

/**
 * A speech stream that ended with speech.audio.done: billed its characters
 * and the tokens the event reports (checked, speech-usage.ts) at the serving
 * endpoint's prices, or, built from raw audio, its text's tokens as the
 * gateway counts them, marked estimated. Answers the usage as OpenAI states
 * it, with the cost.
 */
export async function settleSpokenStream(
  services: SpeechServices,
  run: SpeechRun,
  served: SpeechEventStream,
  done: SpeechStreamEvent,
): Promise<{ input_tokens: number; output_tokens: number; total_tokens: number; cost: number }> {
  const checked = served.fromAudio ? { usage: await countedUsage(run), estimated: true } : checkSpeechUsage(done.usage, run.request);
  const { cost } = await settleRun(services, run, { ...billedOf(run, served), usage: checked.usage, usageEstimated: checked.estimated });
  const { prompt_tokens, completion_tokens, total_tokens } = checked.usage;
  return { input_tokens: prompt_tokens, output_tokens: completion_tokens, total_tokens, cost };
}

/**
 * A speech stream that broke (`failure`) or that its client left (none)
 * after its first event: billed its characters and its text's tokens (the
 * gateway's count), since the provider accepted the text; the audio's tokens
 * were never reported.
 */
export async function settleBrokenSpeech(
  services: SpeechServices,
  run: SpeechRun,
  served: SpeechEventStream,
  failure: GatewayError | undefined,
): Promise<void> {
  const usage = await countedUsage(run);
  const over = failure ? { status: 'error' as const, error: runError(failure) } : { status: 'cancelled' as const };
  await settleRun(services, run, { ...billedOf(run, served), usage, usageEstimated: true, ...over });
}
