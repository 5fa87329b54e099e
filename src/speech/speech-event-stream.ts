import type { Endpoint } from '../catalog/types.js';
import { adapterFor } from '../chat/adapter-for.js';
import type { AttemptOutcome } from '../chat/attempt-outcome.js';
import { runError, settleRun } from '../chat/settle-run.js';
import { replay } from '../chat/stream-chat.js';
import { loadTokenCounter } from '../plugins/shared/token-counter.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import type { SpeechStreamEvent } from '../protocol/speech.js';
import type { Attempt } from '../routing/plan-attempts.js';
import type { SpeechRun, SpeechServices } from './speech-services.js';
import { characters, checkSpeechUsage } from './speech-usage.js';

/** A speech whose provider streams events (speech.audio.delta … speech.audio.done), as it was served. */
export interface SpeechEventStream {
  events: AsyncIterator<SpeechStreamEvent>;
  attempt: Attempt<Endpoint>;
  outcomes: AttemptOutcome[];
  /** From the run's start to the first event. */
  ttftMs: number;
}

/**
 * Opens an attempt's event stream and reads its first event, so that a
 * provider that fails before it is a failed attempt and the next one is
 * tried; the events come back whole, the first one included.
 */
export function openSpeechEvents(services: SpeechServices, run: SpeechRun, signal: AbortSignal) {
  return async (attempt: Attempt<Endpoint>): Promise<AsyncIterator<SpeechStreamEvent>> => {
    const { adapter, target } = adapterFor(services, attempt);
    const events = (await adapter.speakEvents(run.request, target, { signal, endUserId: run.endUserId }))[Symbol.asyncIterator]();
    return replay(await events.next(), events);
  };
}

/** A served attempt's events as the relays take them, timed from the run's start to now (its first event came). */
export const servedSpeechEvents = (
  services: SpeechServices,
  run: SpeechRun,
  { result, attempt, outcomes }: { result: AsyncIterator<SpeechStreamEvent>; attempt: Attempt<Endpoint>; outcomes: AttemptOutcome[] },
): SpeechEventStream => ({ events: result, attempt, outcomes, ttftMs: services.clock().getTime() - run.startedAt });

const billedOf = (run: SpeechRun, { attempt, outcomes, ttftMs }: SpeechEventStream) =>
  ({ status: 'success', streamed: true, attempt, outcomes, ttftMs, characters: characters(run.request) }) as const;

/**
 * A speech stream that ended with speech.audio.done: billed its characters
 * and the tokens the event reports (checked, speech-usage.ts) at the serving
 * endpoint's prices. Answers the usage as OpenAI states it, with the cost.
 */
export async function settleSpokenStream(
  services: SpeechServices,
  run: SpeechRun,
  served: SpeechEventStream,
  done: SpeechStreamEvent,
): Promise<{ input_tokens: number; output_tokens: number; total_tokens: number; cost: number }> {
  const checked = checkSpeechUsage(done.usage, run.request);
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
  const prompt = (await loadTokenCounter()).count(run.request.input);
  const usage = { prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt };
  const over = failure ? { status: 'error' as const, error: runError(failure) } : { status: 'cancelled' as const };
  await settleRun(services, run, { ...billedOf(run, served), usage, usageEstimated: true, ...over });
}
