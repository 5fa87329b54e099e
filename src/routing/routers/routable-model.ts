import { modelTask } from '../../catalog/model-task.js';
import type { Catalog, Model } from '../../catalog/types.js';
import type { ModelScores } from '../../protocol/routing-vocabulary.js';
import { rankingPrice } from '../endpoint-price.js';

/** What the model routers (auto, pareto, switchyard) know of a chat model. */
export interface RoutableModel {
  id: string;
  scores: ModelScores;
  /** USD per token, prompt plus completion after discount, at its cheapest endpoint: the cost axis of the auto-routers. */
  price: number;
  /** USD per prompt token at its cheapest endpoint, as listed (the pareto-router's "prompt" price source). */
  promptPrice: number;
  /** Each endpoint's prompt price after its discount, for the traffic-weighted price. */
  endpoints: readonly { provider: string; prompt: number }[];
}

export function toRoutableModel(model: Pick<Model, 'id' | 'scores' | 'endpoints'>): RoutableModel {
  const prices = model.endpoints.map((e) => rankingPrice(e.pricing));
  return {
    id: model.id,
    scores: model.scores ?? {},
    price: prices.length > 0 ? Math.min(...prices) : 0,
    promptPrice: model.endpoints.length > 0 ? Math.min(...model.endpoints.map((e) => e.pricing.prompt)) : 0,
    endpoints: model.endpoints.map((e) => ({ provider: e.provider, prompt: e.pricing.prompt * (1 - (e.pricing.discount ?? 0)) })),
  };
}

const views = new WeakMap<Catalog, readonly RoutableModel[]>();

/** The catalog's chat models as the routers see them; computed once per catalog (catalogs do not change). */
export function routableModels(catalog: Catalog): readonly RoutableModel[] {
  let view = views.get(catalog);
  if (!view) {
    view = catalog
      .listModels()
      .filter((m) => modelTask(m) === 'chat' && m.endpoints.length > 0)
      .map(toRoutableModel);
    views.set(catalog, view);
  }
  return view;
}
