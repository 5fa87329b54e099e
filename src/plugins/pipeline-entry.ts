import type { GuardrailScope } from '../store/schema.js';

/**
 * The reference's PipelineStageType (open enum), plus `routing` for the
 * planner's own entry: the kind of stage; `name` tells stages of one kind apart.
 */
export type StageType = 'guardrail' | 'plugin' | 'server_tools' | 'response_healing' | 'context_compression' | 'routing';

/**
 * What one stage did to a request, as `service_metadata.pipeline` and the
 * ledger row's routing JSON show it (the reference's PipelineStage).
 * guardrail_id and guardrail_scope are present on guardrail stages only.
 */
export interface PipelineEntry {
  type: StageType;
  name: string;
  guardrail_id?: string;
  guardrail_scope?: GuardrailScope;
  summary: string;
  data: Record<string, unknown>;
}
