import { Errors } from '../../http/errors.js';
import type { ChatMessage } from '../../protocol/chat.js';
import { isGatewayError } from '../../protocol/gateway-error.js';
import { UpstreamError } from '../../protocol/upstream.js';
import type { PipelineEntry } from '../pipeline-entry.js';
import type { InnerCall, InnerCalls, InnerResult } from '../server-tools/server-tool.js';
import { analystMessages, panelMessages } from './fusion-prompts.js';
import type { FusionSettings } from './fusion-settings.js';

export interface FusionOutcome {
  /** The analyst's structured analysis (JSON text). */
  analysis: string;
  /** USD of every inner call, already charged by their own rows. */
  innerCost: number;
  entry: PipelineEntry;
}

const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));
const isAbort = (error: unknown) => error instanceof UpstreamError && error.failure === 'aborted';

/**
 * A fusion run up to the synthesis: every panelist answers in parallel
 * (each an inner call with the research tools, at most max_tool_calls
 * steps), then the analyst compares the answers into a JSON analysis. A
 * panelist that fails is left out (and listed); when all fail, or the
 * analyst fails, it is a 502.
 */
export async function runFusion(
  settings: FusionSettings,
  messages: readonly ChatMessage[],
  inner: InnerCalls,
  signal: AbortSignal,
): Promise<FusionOutcome> {
  const common: Omit<InnerCall, 'model' | 'messages'> = {
    serverTools: settings.tools,
    maxSteps: settings.maxToolCalls,
    ...(settings.maxCompletionTokens !== undefined ? { maxCompletionTokens: settings.maxCompletionTokens } : {}),
  };
  const asked = panelMessages(messages);
  const settled = await Promise.allSettled(
    settings.analysisModels.map((model) =>
      inner(
        { ...common, model, messages: asked, ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}) },
        signal,
      ),
    ),
  );
  if (signal.aborted) throw new UpstreamError('aborted', 'the client went away');
  const answered = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const panel = settled.map((s, i) =>
    s.status === 'fulfilled'
      ? { model: s.value.model, generation_id: s.value.generationId, ok: true, cost: s.value.cost }
      : { model: settings.analysisModels[i], ok: false, error: failure(s.reason) },
  );
  const data = {
    preset: settings.preset,
    analysis_models: settings.analysisModels,
    model: settings.model,
    max_tool_calls: settings.maxToolCalls,
    panel,
  };
  if (answered.length === 0)
    throw Errors.fusionPanelFailed(
      { fusion: data },
      `every analysis model failed (${panel.map((p) => `${p.model}: ${p.error}`).join('; ')})`,
    );

  let analyst: InnerResult;
  try {
    // The analyst judges, it does not create: temperature 0.
    analyst = await inner(
      { ...common, model: settings.model, messages: analystMessages(messages, answered), temperature: 0, responseFormat: 'json_object' },
      signal,
    );
  } catch (error) {
    if (isAbort(error)) throw error;
    throw Errors.fusionPanelFailed(
      { fusion: data },
      `the analyst ${settings.model} failed: ${isGatewayError(error) ? error.message : failure(error)}`,
    );
  }
  const innerCost = [...answered, analyst].reduce((sum, call) => sum + call.cost, 0);
  return {
    analysis: analyst.content,
    innerCost,
    entry: {
      type: 'plugin',
      name: 'fusion',
      summary: `${answered.length} of ${settings.analysisModels.length} panelists answered; ${settings.model} analyzed`,
      data: { ...data, analyst: { model: analyst.model, generation_id: analyst.generationId, cost: analyst.cost }, inner_cost: innerCost },
    },
  };
}
