import { computeCost } from '../accounting/compute-cost.js';
import type { CostCeiling } from '../accounting/reservation-ceiling.js';
import { adapterFor } from '../chat/adapter-for.js';
import type { Run, RunContext } from '../chat/run.js';
import type { RunServices } from '../chat/run-services.js';
import { serveRun } from '../chat/serve-run.js';
import { settleRun } from '../chat/settle-run.js';
import { startRun } from '../chat/start-run.js';
import type { SpeechAdapter, UpstreamVideoContent } from '../protocol/adapters.js';
import type { SpeechRequest } from '../protocol/speech.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { characters, maxSpeechTokens } from './speech-usage.js';

/** What the speech flow needs beyond the request; built once in app.ts. */
export interface SpeechServices extends RunServices {
  adapters: Readonly<Record<string, SpeechAdapter>>;
  /** How long an SSE speech waits for its first upstream event before sending keep-alive comments. */
  keepAliveAfterMs: number;
}

export type SpeechRun = Run<SpeechRequest>;

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
 * A speech request: try the plan as chat does until an endpoint accepts it
 * (fallbacks, Retry-After, health), then charge its characters and record
 * the row before the first byte goes out. The audio is the provider's as it
 * streams; once it accepted the text it bills it, so a stream that breaks
 * later is still charged.
 */
export function completeSpeech(services: SpeechServices, run: SpeechRun, signal: AbortSignal): Promise<UpstreamVideoContent> {
  return serveRun(
    services,
    run,
    signal,
    async (attempt) => {
      const { adapter, target } = adapterFor(services, attempt);
      return adapter.speak(run.request, target, { signal, endUserId: run.endUserId });
    },
    async ({ result, attempt, outcomes }) => {
      await settleRun(services, run, {
        status: 'success',
        streamed: true,
        attempt,
        outcomes,
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
        characters: characters(run.request),
      });
      return result;
    },
  );
}
