import { Errors } from '../../http/errors.js';
import type { ChatRequest } from '../../protocol/chat.js';
import { type AutoRouterSettings, chooseAutoModels } from '../auto-router/choose-auto-models.js';
import { classifyTask } from '../auto-router/classify-task.js';
import { chooseParetoModels, type ParetoRouterSettings } from '../pareto-router/choose-pareto-models.js';
import { requestedModels } from '../plan-attempts.js';
import { chooseSwitchyardModels, type SwitchyardSettings } from '../switchyard-router/choose-switchyard-models.js';
import { requestFeatures } from '../switchyard-router/request-features.js';
import type { RoutableModel } from './routable-model.js';
import type { RouterChoice } from './router-choice.js';

/** The model slugs that stand for a router, and the plugins that configure each (the first enabled one wins). */
export const ROUTER_MODELS = {
  'service/auto': ['auto-router', 'auto-beta-router'],
  'service/pareto': ['pareto-router'],
  'service/switchyard': ['switchyard-router'],
} as const;

export type RouterModel = keyof typeof ROUTER_MODELS;
export type RouterPlugin = (typeof ROUTER_MODELS)[RouterModel][number];

type Plugins = NonNullable<ChatRequest['plugins']>;

const isRouterModel = (model: string | undefined): model is RouterModel => model !== undefined && Object.hasOwn(ROUTER_MODELS, model);
const routerOf = (plugin: string): RouterModel | undefined =>
  (Object.keys(ROUTER_MODELS) as RouterModel[]).find((slug) => (ROUTER_MODELS[slug] as readonly string[]).includes(plugin));

/**
 * The model a request without `model` or `models` stands for: the router
 * of its first enabled router plugin (its own or its organization's), so
 * that `plugins: [{id: "auto-router"}]` alone routes; none without one.
 */
export function routerModelOf(plugins: Plugins | undefined): RouterModel | undefined {
  for (const plugin of plugins ?? []) {
    const slug = plugin.enabled !== false ? routerOf(plugin.id) : undefined;
    if (slug) return slug;
  }
  return undefined;
}

/** What the routers read beyond the request. */
export interface RouterContext {
  /** The catalog's chat models (routableModels). */
  models: readonly RoutableModel[];
  /** Requests each endpoint (model, provider) served lately, for the pareto-router's weighted price. */
  traffic: (model: string, provider: string) => number;
  random: () => number;
}

/** A router's decision for the routing explanation and the ledger. */
export interface RouterDecision {
  /** The router model the request named, e.g. "service/auto". */
  router: RouterModel;
  plugin: RouterPlugin;
  choice: RouterChoice;
}

export interface RoutedModels {
  /** The models to plan, in order: the router's choice (when one ran), then the request's fallbacks. */
  requested: string[];
  decision?: RouterDecision;
  /** Enabled router plugins that did not run, each with why (the request named a model). */
  skipped: { plugin: string; reason: string }[];
}

/** The latest assistant message's model, which pin_model reuses. */
function lastAssistantModel(request: ChatRequest): string | undefined {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role === 'assistant' && message.model !== undefined) return message.model;
  }
  return undefined;
}

function choose(plugin: RouterPlugin, settings: Record<string, unknown>, request: ChatRequest, context: RouterContext): RouterChoice {
  switch (plugin) {
    case 'auto-router':
    case 'auto-beta-router':
      return chooseAutoModels({
        models: context.models,
        classification: classifyTask(request.messages),
        // pin_model is auto-router's alone (spec 2.2 rule 6).
        settings: plugin === 'auto-router' ? (settings as AutoRouterSettings) : { ...(settings as AutoRouterSettings), pin_model: false },
        pinned: lastAssistantModel(request),
      });
    case 'pareto-router':
      return chooseParetoModels({ models: context.models, settings: settings as ParetoRouterSettings, traffic: context.traffic });
    case 'switchyard-router':
      return chooseSwitchyardModels(settings as SwitchyardSettings, requestFeatures(request), context.random);
  }
}

/**
 * The models a chat request is planned with. A `model` that names a router
 * (service/auto, service/pareto, service/switchyard) runs it, configured by
 * the request's plugin of that router (merged with the organization's), or
 * with the router's defaults when there is none; its choice replaces the
 * slug, the request's `models` follow as fallbacks. A router plugin beside a
 * model of the catalog does not run: as in the reference, the plugins
 * configure the router models. A router plugin the request disables
 * (`enabled: false`) cannot serve its model: a 400.
 */
export function routeModels(request: ChatRequest, context: RouterContext): RoutedModels {
  const requested = requestedModels(request.model, request.models);
  const plugins = request.plugins ?? [];
  const router = isRouterModel(request.model) ? request.model : undefined;
  const skipped = plugins
    .filter((p) => p.enabled !== false && routerOf(p.id) !== undefined && routerOf(p.id) !== router)
    .map((p) => ({
      plugin: p.id,
      reason: `not applied: the request names model ${request.model ?? requestedModels(undefined, request.models)[0]}`,
    }));
  if (!router) return { requested, skipped };

  const candidates: readonly string[] = ROUTER_MODELS[router];
  const configured = plugins.find((p) => candidates.includes(p.id) && p.enabled !== false);
  if (!configured && plugins.some((p) => candidates.includes(p.id))) throw Errors.routerDisabled(router, candidates[0]!);
  const plugin = (configured?.id ?? candidates[0]) as RouterPlugin;
  const { id: _id, enabled: _enabled, ...settings } = configured ?? { id: plugin };
  const choice = choose(plugin, settings, request, context);
  if (choice.models.length === 0) throw Errors.routerFoundNoModel(plugin, choice.summary);
  return {
    requested: requestedModels(undefined, [...choice.models, ...requested.filter((id) => id !== router)]),
    decision: { router, plugin, choice },
    skipped,
  };
}
