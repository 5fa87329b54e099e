import type { RoutableModel } from '../routers/routable-model.js';
import type { ModelVerdict, RouterChoice } from '../routers/router-choice.js';
import type { TaskClassification } from './classify-task.js';
import { compileModelPatterns } from './match-model-pattern.js';
import { type CostTier, costBand, costPercentiles, selectInBand } from './select-cost-band.js';

/** The auto-router plugins' fields (spec 2.2; pin_model is auto-router's only). */
export interface AutoRouterSettings {
  allowed_models?: readonly string[];
  excluded_models?: readonly string[];
  cost_tier?: CostTier;
  cost_quality_tradeoff?: number;
  pin_model?: boolean;
}

export interface AutoRouterInput {
  /** The catalog's chat models. */
  models: readonly RoutableModel[];
  classification: TaskClassification;
  settings: AutoRouterSettings;
  /** The `model` of the most recent assistant message, reused first when pin_model is on. */
  pinned?: string | undefined;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * The models the auto-router tries, best first (spec 2.2 rules 1–6):
 * allowed_models narrows the catalog, excluded_models then removes (an
 * excluded pattern always wins); without allowed_models the candidates are
 * the models ranked (scored) for the request's task type, or the default
 * model set (models with a general score, else all) when none is; the cost
 * band of cost_tier, else of cost_quality_tradeoff (9 by default), keeps the
 * candidates of that cost percentile; they are tried by their score for the
 * task, then cheapest first. With pin_model, the most recent assistant
 * message's model goes first while the patterns allow it.
 */
export function chooseAutoModels({ models, classification, settings, pinned }: AutoRouterInput): RouterChoice {
  const { task } = classification;
  const allowed = settings.allowed_models ? compileModelPatterns(settings.allowed_models) : undefined;
  const excluded = compileModelPatterns(settings.excluded_models ?? []);
  const dropped: ModelVerdict[] = [];
  const drop = (model: RoutableModel, reason: string) => dropped.push({ model: model.id, decision: 'dropped', reason });

  const eligible = models.filter((m) => {
    if (allowed && !allowed.match(m.id)) return (drop(m, 'not matched by allowed_models'), false);
    const pattern = excluded.match(m.id);
    if (pattern) return (drop(m, `excluded_models: matches ${pattern}`), false);
    return true;
  });

  const ranked = eligible.filter((m) => m.scores[task] !== undefined);
  const general = eligible.filter((m) => m.scores.general !== undefined);
  const [pool, source] = allowed
    ? [eligible, 'allowed_models']
    : ranked.length > 0
      ? [ranked, `ranked for ${task}`]
      : [general.length > 0 ? general : eligible, `default model set (no model is ranked for ${task})`];
  for (const m of eligible) if (!pool.includes(m)) drop(m, `not ranked for ${task}`);

  const band = costBand(settings.cost_tier, settings.cost_quality_tradeoff);
  const percentiles = costPercentiles(pool, (m) => m.price);
  const { kept, nearest } = selectInBand(percentiles, band);
  for (const m of pool) if (!kept.includes(m)) drop(m, `cost percentile ${round(percentiles.get(m)!)} outside ${band.label}`);

  const score = (m: RoutableModel) => m.scores[task] ?? m.scores.general;
  const ordered = [...kept].sort((a, b) => (score(b) ?? -1) - (score(a) ?? -1) || a.price - b.price || a.id.localeCompare(b.id));
  const pinnedModel = settings.pin_model && pinned ? eligible.find((m) => m.id === pinned) : undefined;
  const chosen = pinnedModel ? [pinnedModel, ...ordered.filter((m) => m !== pinnedModel)] : ordered;
  const reason = (m: RoutableModel) => {
    if (m === pinnedModel) return 'pin_model: the model of the most recent assistant message';
    const scored = score(m) === undefined ? 'no score' : `${m.scores[task] !== undefined ? task : 'general'} score ${score(m)}`;
    return `${scored}, cost percentile ${round(percentiles.get(m) ?? 0)}${nearest ? ` (nearest to ${band.label})` : ''}`;
  };

  const params = {
    task,
    task_cues: classification.cues,
    candidates: source,
    cost_band: band.label,
    ...(settings.pin_model ? { pin_model: pinned ?? null } : {}),
  };
  const summary =
    chosen.length === 0
      ? 'no model left: allowed_models and excluded_models leave none'
      : `${task} → ${chosen[0]!.id}${pinnedModel ? ' (pinned)' : ''}, ${chosen.length} of ${models.length} models (${source}, ${band.label})`;
  return {
    models: chosen.map((m) => m.id),
    summary,
    params,
    verdicts: [
      ...chosen.map((m): ModelVerdict => ({ model: m.id, decision: 'chosen', reason: reason(m) })),
      ...dropped.filter((v) => v.model !== pinnedModel?.id),
    ],
  };
}
