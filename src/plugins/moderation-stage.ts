import { describeFailure } from '../chat/attempt-outcome.js';
import type { RoutedRequest } from '../chat/run.js';
import type { ScannedText } from '../guardrails/scan-content.js';
import { Errors } from '../http/errors.js';
import type { ModerationAdapter, ModerationVerdict } from '../protocol/adapters.js';
import type { UpstreamTarget } from '../protocol/upstream.js';
import type { Clock } from '../util/clock.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { RequestStage } from './request-stage.js';

/** The moderation provider of this gateway: the adapter and where it calls. */
export interface ModerationProvider {
  adapter: ModerationAdapter;
  target: UpstreamTarget;
}

const entry = (summary: string, data: Record<string, unknown>): PipelineEntry => ({ type: 'plugin', name: 'moderation', summary, data });

/**
 * The `moderation` plugin: the request's texts go to the moderation provider
 * before any model sees them; flagged input is a 403 naming the categories.
 * It fails closed: without a provider the plugin is a 400, and a provider
 * that fails is a 502, never a request let through unmoderated.
 */
export function moderationStage<R extends RoutedRequest>(
  texts: (request: R) => ScannedText[],
  provider: ModerationProvider | undefined,
  clock: Clock,
): RequestStage<R> {
  return {
    name: 'moderation',
    applies: (context) => context.plugins.has('moderation'),
    async run({ run, signal }) {
      if (!provider) throw Errors.moderationUnavailable();
      const inputs = texts(run.request).flatMap((t) => (t.text.trim() === '' ? [] : [t.text]));
      if (inputs.length === 0) return { entries: [entry('Skipped: the request has no text to moderate', { action: 'skipped' })] };
      const { adapter, target } = provider;
      const started = clock().getTime();
      let verdicts: ModerationVerdict[];
      try {
        verdicts = await adapter.moderate(inputs, target, { signal });
      } catch (error) {
        const failure = describeFailure(error);
        throw Errors.moderationFailed({ provider_name: target.providerId, raw: failure }, target.providerId, failure.message);
      }
      const categories = [...new Set(verdicts.flatMap((v) => (v.flagged ? v.categories : [])))];
      const data = {
        model: target.upstreamModel,
        provider: target.providerId,
        inputs: inputs.length,
        latency_ms: clock().getTime() - started,
      };
      if (!verdicts.some((v) => v.flagged))
        return { entries: [entry('Allowed: nothing flagged', { action: 'allowed', flagged: false, ...data })] };
      const flaggedInputs = verdicts.flatMap((v, index) => (v.flagged ? [index] : []));
      return {
        entries: [
          entry(`Blocked: flagged for ${categories.join(', ') || 'an unnamed category'}`, {
            action: 'blocked',
            flagged: true,
            categories,
            flagged_inputs: flaggedInputs,
            ...data,
          }),
        ],
        blocked: Errors.moderationFlagged(
          { categories, flagged_inputs: flaggedInputs, provider_name: target.providerId, model: target.upstreamModel },
          categories.join(', ') || 'an unnamed category',
        ),
      };
    },
  };
}
