import { modelTask } from '../../catalog/model-task.js';
import type { Model } from '../../catalog/types.js';
import { FUSION_MODEL } from '../../chat/fusion-run.js';
import type { ROUTER_MODELS } from '../../routing/routers/route-models.js';
import { toArchitectureRecord } from './model-record.js';

/** What each model slug that stands for a router or for fusion says of itself in /models. */
const DESCRIPTIONS: Record<keyof typeof ROUTER_MODELS | typeof FUSION_MODEL, { name: string; description: string }> = {
  'service/auto': {
    name: 'Auto Router',
    description:
      'Chooses a model per request from the task type of its prompt, its cost tier or cost/quality trade-off (auto-router plugin).',
  },
  'service/pareto': {
    name: 'Pareto Router',
    description:
      'Chooses on the cost/quality Pareto frontier of the catalog, above a minimum coding score and under a price ceiling (pareto-router plugin).',
  },
  'service/switchyard': {
    name: 'Switchyard Router',
    description:
      "Routes by the organization's rules over request features: tools, images, prompt length, reasoning (switchyard-router plugin).",
  },
  [FUSION_MODEL]: {
    name: 'Fusion',
    description: 'Runs a panel of analysis models with web search and fetch, then writes one answer from their findings (fusion plugin).',
  },
};

// The price depends on the model chosen per request; "-1" is how a variable price reads where prices are strings.
const VARIABLE_PRICING = { prompt: '-1', completion: '-1' };

/**
 * The router and fusion slugs as models, after the catalog's, so that a
 * client listing models finds every `model` value it may send. Their limits
 * and parameters are those of the chat models they choose among; none is
 * listed when the catalog serves no chat model.
 */
export function routerModelRecords(models: readonly Model[], modelsPath: string) {
  const chat = models.filter((m) => modelTask(m) === 'chat');
  if (chat.length === 0) return [];
  const contextLength = Math.max(...chat.map((m) => m.contextLength ?? 0)) || null;
  const union = (pick: (m: Model) => readonly string[]) => [...new Set(chat.flatMap(pick))];
  const architecture = toArchitectureRecord({
    input_modalities: union((m) => m.architecture.input_modalities),
    output_modalities: ['text'],
    tokenizer: 'Router',
  });
  const supported = union((m) => m.endpoints.flatMap((e) => e.supportedParameters ?? []));
  return Object.entries(DESCRIPTIONS).map(([id, { name, description }]) => ({
    id,
    canonical_slug: id,
    name,
    created: 0,
    description,
    context_length: contextLength,
    architecture,
    pricing: VARIABLE_PRICING,
    top_provider: { context_length: contextLength, max_completion_tokens: null, is_moderated: false },
    per_request_limits: null,
    supported_parameters: supported,
    default_parameters: null,
    supported_voices: null,
    links: { details: `${modelsPath}/${id}/endpoints` },
    object: 'model' as const,
    owned_by: 'service',
  }));
}
