import type { ChatRun } from '../chat/run.js';
import type { ChatCompletion } from '../protocol/chat.js';
import type { PipelineEntry } from './pipeline-entry.js';

/** A post-response stage: runs on a non-streaming completion before it is billed and sent; it may rewrite it. */
export interface ResponseStage {
  name: string;
  applies(run: ChatRun): boolean;
  run(run: ChatRun, completion: ChatCompletion): { completion: ChatCompletion; entries: PipelineEntry[] };
}

/** Runs the stages that apply, in order; returns the completion and the run with their entries in its pipeline. */
export function runResponseStages(
  stages: readonly ResponseStage[],
  run: ChatRun,
  completion: ChatCompletion,
): { completion: ChatCompletion; run: ChatRun } {
  let current = completion;
  const entries: PipelineEntry[] = [];
  for (const stage of stages) {
    if (!stage.applies(run)) continue;
    const result = stage.run(run, current);
    current = result.completion;
    entries.push(...result.entries);
  }
  if (entries.length === 0) return { completion: current, run };
  return { completion: current, run: { ...run, routing: { ...run.routing, pipeline: [...(run.routing.pipeline ?? []), ...entries] } } };
}
