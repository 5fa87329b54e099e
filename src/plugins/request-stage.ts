import type { ActivePlugins, RoutedRequest, Run } from '../chat/run.js';
import { serviceMetadata } from '../chat/service-metadata.js';
import type { ApplicableGuardrail } from '../guardrails/compiled-guardrail.js';
import { Errors } from '../http/errors.js';
import { type GatewayError, isGatewayError } from '../protocol/gateway-error.js';
import type { PipelineEntry } from './pipeline-entry.js';

/** What a stage sees: the run so far (request and plan), the plugins and guardrails in force. */
export interface StageContext<R extends RoutedRequest> {
  run: Run<R>;
  plugins: ActivePlugins;
  guardrails: readonly ApplicableGuardrail[];
  signal: AbortSignal;
}

/**
 * What a stage did: its entries for the pipeline, the run it changed (the
 * request it rewrote, the endpoints it dropped), or the error that stops the
 * request. A stage never changes the run without an entry saying so.
 */
export interface StageResult<R extends RoutedRequest> {
  entries: PipelineEntry[];
  run?: Run<R>;
  blocked?: GatewayError;
}

/** A pre-request stage: runs after planning and before the first upstream attempt. */
export interface RequestStage<R extends RoutedRequest> {
  name: string;
  /** Whether the stage has anything to do for this request; cheap, so that a request with no plugin or guardrail costs nothing. */
  applies(context: StageContext<R>): boolean;
  run(context: StageContext<R>): Promise<StageResult<R>> | StageResult<R>;
}

/** The error a stage stopped the request with, carrying the pipeline so far when the client asked for service_metadata. */
function stopped<R extends RoutedRequest>(error: GatewayError, run: Run<R>, pipeline: PipelineEntry[]): GatewayError {
  return run.wantsMetadata ? error.withServiceMetadata(serviceMetadata({ ...run.routing, pipeline, attempts: [] })) : error;
}

/**
 * Runs the stages that apply, in order, each on the run the previous one
 * left. Returns the run with every entry in `routing.pipeline` (and so in
 * service_metadata and the ledger row), or throws the error of the stage
 * that stopped it. A stage that fails unexpectedly is a 500, never a skip
 * that nobody sees.
 */
export async function runRequestStages<R extends RoutedRequest>(
  stages: readonly RequestStage<R>[],
  context: StageContext<R>,
): Promise<Run<R>> {
  let run = context.run;
  const pipeline: PipelineEntry[] = [...(run.routing.pipeline ?? [])];
  for (const stage of stages) {
    const current = { ...context, run };
    if (!stage.applies(current)) continue;
    let result: StageResult<R>;
    try {
      result = await stage.run(current);
    } catch (error) {
      throw stopped(isGatewayError(error) ? error : Errors.internal(), run, pipeline);
    }
    pipeline.push(...result.entries);
    run = result.run ?? run;
    if (result.blocked) throw stopped(result.blocked, run, pipeline);
  }
  return pipeline.length === 0 ? run : { ...run, routing: { ...run.routing, pipeline } };
}
