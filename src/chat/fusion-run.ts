import { servesChat } from '../catalog/model-task.js';
import { Errors } from '../http/errors.js';
import { synthesisMessages } from '../plugins/fusion/fusion-prompts.js';
import { type FusionFields, fusionSettings } from '../plugins/fusion/fusion-settings.js';
import { runFusion } from '../plugins/fusion/run-fusion.js';
import type { ChatRequest } from '../protocol/chat.js';
import { isGatewayError } from '../protocol/gateway-error.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { completeChat } from './complete-chat.js';
import { innerCalls } from './inner-calls.js';
import { chatRunCeiling, prepareReservedChat } from './reserve-chat-run.js';
import type { ChatRun, RunContext } from './run.js';
import type { ChatServices } from './run-services.js';
import { serviceMetadata } from './service-metadata.js';
import { runError, settleRun } from './settle-run.js';
import { startChatRun } from './start-run.js';

/** The model slug of a fusion run (spec 2.2). */
export const FUSION_MODEL = 'service/fusion';

/** The fusion plugin's fields of a request (its own over its organization's, already merged); a disabled plugin leaves nothing to run. */
function fusionFields(request: ChatRequest): FusionFields {
  const plugin = request.plugins?.find((p) => p.id === 'fusion');
  if (plugin?.enabled === false) throw Errors.routerDisabled(FUSION_MODEL, 'fusion');
  return (plugin ?? {}) as FusionFields;
}

/**
 * A `service/fusion` request up to its synthesis: the run is planned for
 * the synthesis model (fusion's `model`), goes through the pipeline, then
 * the panel and the analyst run as inner calls linked to it; the analysis
 * goes before the conversation and the run, now the synthesis, is served
 * like any chat (streamed when asked). Its cost includes the inner calls'.
 * A failed fusion is recorded on the request's own row.
 */
export async function startFusionRun(
  services: ChatServices,
  key: ApiKeyRow,
  request: ChatRequest,
  context: RunContext,
  signal: AbortSignal,
): Promise<ChatRun> {
  const settings = fusionSettings(fusionFields(request), servesChat(services.catalog));
  const started = await startChatRun(services, key, { ...request, model: settings.model }, context);
  const planned: ChatRun = { ...started, routing: { ...started.routing, requested: { model: FUSION_MODEL, models: request.models } } };
  const run = await prepareReservedChat(services, planned, signal);
  try {
    const fusion = await runFusion(settings, run.request.messages, innerCalls(services, run, completeChat), signal);
    const synthesis: ChatRun = {
      ...run,
      request: { ...run.request, messages: synthesisMessages(run.request.messages, fusion.analysis) },
      innerCost: fusion.innerCost,
      routing: { ...run.routing, pipeline: [...(run.routing.pipeline ?? []), fusion.entry] },
    };
    // The panel's answers lengthen the synthesis prompt: the run now holds what the synthesis can cost.
    await run.reservation?.resize(() => chatRunCeiling(services, synthesis));
    return synthesis;
  } catch (error) {
    const failure = isGatewayError(error) ? error : Errors.internal();
    await settleRun(services, run, {
      status: signal.aborted ? 'cancelled' : 'error',
      streamed: request.stream === true,
      outcomes: [],
      error: runError(failure),
    });
    throw run.wantsMetadata ? failure.withServiceMetadata(serviceMetadata({ ...run.routing, attempts: [] })) : failure;
  }
}
