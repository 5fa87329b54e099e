/**
 * Words the catalog, the config file and the router share: the quantizations
 * and service tiers an endpoint can state, and the task types models are
 * scored for.
 */

/** The reference's Quantization values. */
export const QUANTIZATIONS = ['int4', 'int8', 'fp4', 'mxfp4', 'nvfp4', 'fp6', 'fp8', 'mxfp8', 'fp16', 'bf16', 'fp32', 'unknown'] as const;

/** Canonical service tiers (the request's `fast` is `priority`). */
export const SERVICE_TIERS = ['auto', 'default', 'flex', 'priority', 'scale'] as const;
export type ServiceTier = (typeof SERVICE_TIERS)[number];

/** Whether an endpoint can be asked for a tier; an endpoint that lists none offers none. */
export const offersTier = (tiers: readonly ServiceTier[] | undefined, tier: ServiceTier): boolean => tiers?.includes(tier) === true;

/**
 * What the auto-router classifies a request as (routing/auto-router/classify-task.ts).
 * A model's score for `general` is its overall quality.
 */
export const TASK_TYPES = ['coding', 'math', 'creative_writing', 'translation', 'general'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** 0–1 per task type, higher is better; a model with a score for a task is ranked for it. */
export type ModelScores = Partial<Record<TaskType, number>>;
