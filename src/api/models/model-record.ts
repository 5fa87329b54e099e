import type { Architecture, Model } from '../../catalog/types.js';
import { toPricingRecord } from './pricing-record.js';

/** The reference's ModelArchitecture; `modality` reads like "text+image->text". */
export const toArchitectureRecord = (a: Architecture) => ({
  modality: `${a.input_modalities.join('+')}->${a.output_modalities.join('+')}`,
  input_modalities: a.input_modalities,
  output_modalities: a.output_modalities,
  tokenizer: a.tokenizer,
  instruct_type: null,
});

/** Every parameter some endpoint accepts, in first-seen order. */
const supportedParameters = (model: Model): string[] => [...new Set(model.endpoints.flatMap((e) => e.supportedParameters ?? []))];

/**
 * The reference document's Model, which `@openrouter/sdk` parses, plus
 * `object` and `owned_by` so that the `openai` client's `models.list()` reads
 * the same list. Pricing and limits are the top (first) endpoint's.
 */
export function toModelRecord(model: Model, modelsPath: string) {
  const [top] = model.endpoints;
  if (!top) throw new Error(`model "${model.id}" has no endpoint`);
  return {
    id: model.id,
    canonical_slug: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    context_length: model.contextLength ?? null,
    architecture: toArchitectureRecord(model.architecture),
    pricing: toPricingRecord(top.pricing),
    top_provider: {
      context_length: top.contextLength ?? null,
      max_completion_tokens: top.maxCompletionTokens ?? null,
      is_moderated: false,
    },
    per_request_limits: null,
    supported_parameters: supportedParameters(model),
    default_parameters: null,
    supported_voices: null,
    links: { details: `${modelsPath}/${model.id}/endpoints` },
    object: 'model' as const,
    owned_by: model.id.split('/')[0],
  };
}
