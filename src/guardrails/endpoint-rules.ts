import type { Endpoint } from '../catalog/types.js';
import type { GuardrailRules, ZdrField } from './guardrail-rules.js';
import { ZDR_FIELDS } from './guardrail-rules.js';
import { matchesModelPattern } from './model-pattern.js';

const zdrFieldOf = (modelId: string): ZdrField =>
  ZDR_FIELDS[modelId.split('/', 1)[0]?.toLowerCase() as keyof typeof ZDR_FIELDS] ?? 'enforce_zdr_other';

const isFree = (endpoint: Pick<Endpoint, 'pricing'>) =>
  endpoint.pricing.prompt === 0 && endpoint.pricing.completion === 0 && !endpoint.pricing.request;

const listed = (values: readonly string[] | null, value: string) => values?.some((v) => v.toLowerCase() === value.toLowerCase()) ?? false;

/**
 * Why a guardrail does not allow a model on an endpoint, or undefined when
 * it does: allowed/ignored models and providers, zero data retention per
 * vendor, and training on request data. As with the provider preferences,
 * an unknown catalog fact fails a privacy rule.
 */
export function guardrailExclusion(
  rules: GuardrailRules,
  modelId: string,
  endpoint: Pick<Endpoint, 'provider' | 'pricing' | 'zdr' | 'dataCollection'>,
): string | undefined {
  if (rules.allowed_models && !rules.allowed_models.some((p) => matchesModelPattern(modelId, p)))
    return `model ${modelId} not in allowed_models`;
  if (rules.ignored_models?.some((p) => matchesModelPattern(modelId, p))) return `model ${modelId} in ignored_models`;
  if (rules.allowed_providers && !listed(rules.allowed_providers, endpoint.provider))
    return `provider ${endpoint.provider} not in allowed_providers`;
  if (listed(rules.ignored_providers, endpoint.provider)) return `provider ${endpoint.provider} in ignored_providers`;
  const zdr = zdrFieldOf(modelId);
  if (rules[zdr] === true && endpoint.zdr !== true) return `${zdr}: no zero data retention`;
  const training = isFree(endpoint) ? 'enable_free_model_training' : 'enable_paid_model_training';
  if (rules[training] === false && endpoint.dataCollection !== 'deny')
    return `${training} is false: ${endpoint.dataCollection ? 'may train on data' : 'data policy unknown'}`;
  return undefined;
}
