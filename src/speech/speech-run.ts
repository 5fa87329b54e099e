import { computeCost } from '../accounting/compute-cost.js';
import type { CostCeiling } from '../accounting/reservation-ceiling.js';
import type { Endpoint } from '../catalog/types.js';
import { adapterFor } from '../chat/adapter-for.js';
import type { RunContext } from '../chat/run.js';
import { serveRun } from '../chat/serve-run.js';
import { settleRun } from '../chat/settle-run.js';
import { startRun } from '../chat/start-run.js';
import type { UpstreamVideoContent } from '../protocol/adapters.js';
import type { SpeechRequest, SpeechStreamEvent } from '../protocol/speech.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { type SpokenAudio, speechAudioOfEvents } from './speech-audio-of-events.js';
import { countedUsage, openSpeechEvents, servedSpeechEvents } from './speech-event-stream.js';
import type { SpeechRun, SpeechServices } from './speech-services.js';
import { characters, maxSpeechTokens } from './speech-usage.js';

/** Plans a speech request: the model's endpoints as chat plans them. A model of another type is a 400 naming its endpoint. */
export function startSpeechRun(services: SpeechServices, key: ApiKeyRow, request: SpeechRequest, context: RunContext): SpeechRun {
  return startRun(services, key, request, context, { task: 'speech', requested: [request.model] });
}

/**
 * The most a speech request can cost at the dearest endpoint: its
 * characters at the `character` price, the most tokens it can be billed
 * (maxSpeechTokens) at the token prices, and the `request` price.
 */
export function speechRunCeiling(run: SpeechRun): CostCeiling {
  const at = new Date(run.startedAt);
  const units = { characters: characters(run.request) };
  const max = maxSpeechTokens(run.request);
  const usage = { prompt_tokens: max.input, completion_tokens: max.output, total_tokens: max.input + max.output };
  return { usd: Math.max(0, ...run.attempts.map((a) => computeCost(a.endpoint.pricing, usage, at, 1, units).total)) };
}

/**
 * Whether an endpoint bills speech by tokens (gpt-4o-mini-tts: text tokens
 * in, audio tokens out). OpenAI reports those tokens only in an SSE speech's
 * speech.audio.done, so such an endpoint is always asked for events.
 */
export const billsSpeechByTokens = (endpoint: Endpoint): boolean => endpoint.pricing.prompt > 0 || endpoint.pricing.completion > 0;

/**
 * A speech request answered with raw audio: try the plan as chat does until
 * an endpoint accepts it (fallbacks, Retry-After, health). An endpoint billed
 * by characters is charged them and its row recorded before the first byte
 * goes out: it bills the text it accepted, so a stream that breaks later is
 * still charged. One billed by tokens is asked for events, whose audio goes
 * out as raw bytes, and is settled by their done event's tokens once the
 * audio has gone by (speechAudioOfEvents); when it answers raw audio instead
 * (a server that ignores `stream_format`), that audio goes out as it is,
 * charged as one billed by characters is, with its text's tokens as the
 * gateway counts them (marked estimated): the server reports none.
 */
export function completeSpeech(services: SpeechServices, run: SpeechRun, signal: AbortSignal): Promise<SpokenAudio> {
  const openEvents = openSpeechEvents(services, run, signal);
  return serveRun(
    services,
    run,
    signal,
    async (attempt): Promise<UpstreamVideoContent | AsyncIterator<SpeechStreamEvent>> => {
      if (billsSpeechByTokens(attempt.endpoint)) return openEvents(attempt);
      const { adapter, target } = adapterFor(services, attempt);
      return adapter.speak(run.request, target, { signal, endUserId: run.endUserId });
    },
    async ({ result, attempt, outcomes }) => {
      if ('next' in result)
        return speechAudioOfEvents(services, run, servedSpeechEvents(services, run, { result, attempt, outcomes }), signal);
      const counted = billsSpeechByTokens(attempt.endpoint);
      await settleRun(services, run, {
        status: 'success',
        streamed: true,
        attempt,
        outcomes,
        usage: counted ? await countedUsage(run) : { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
        usageEstimated: counted,
        characters: characters(run.request),
      });
      return { ...result, settled: Promise.resolve() };
    },
  );
}
