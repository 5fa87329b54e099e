import type { TaskType } from '../../protocol/routing-vocabulary.js';
import type { ModelVerdict, RouterChoice } from '../routers/router-choice.js';
import type { RequestFeatures } from './request-features.js';

/** When a rule applies; every field given must hold. */
export interface SwitchyardCondition {
  tools?: boolean;
  images?: boolean;
  reasoning?: boolean;
  min_prompt_tokens?: number;
  max_prompt_tokens?: number;
  task?: TaskType;
  min_tool_errors?: number;
}

export interface SwitchyardRule {
  name?: string;
  when?: SwitchyardCondition;
  models: readonly string[];
}

export type SwitchyardAlgorithm = 'capability' | 'stage' | 'auto' | 'random' | 'composite' | 'passthrough';

export interface SwitchyardSettings {
  algorithm?: SwitchyardAlgorithm;
  rules?: readonly SwitchyardRule[];
}

/** The first condition of a rule that the request fails, said plainly; none when the rule applies. */
export function ruleMismatch(when: SwitchyardCondition | undefined, features: RequestFeatures): string | undefined {
  if (!when) return undefined;
  for (const flag of ['tools', 'images', 'reasoning'] as const)
    if (when[flag] !== undefined && when[flag] !== features[flag]) return `${flag} is ${features[flag]}`;
  if (when.min_prompt_tokens !== undefined && features.promptTokens < when.min_prompt_tokens)
    return `${features.promptTokens} prompt tokens < ${when.min_prompt_tokens}`;
  if (when.max_prompt_tokens !== undefined && features.promptTokens > when.max_prompt_tokens)
    return `${features.promptTokens} prompt tokens > ${when.max_prompt_tokens}`;
  if (when.min_tool_errors !== undefined && features.toolErrors < when.min_tool_errors)
    return `${features.toolErrors} tool errors < ${when.min_tool_errors}`;
  if (when.task !== undefined && features.task() !== when.task) return `task is ${features.task()}`;
  return undefined;
}

const ruleName = (rule: SwitchyardRule, index: number) => `rule ${index + 1}${rule.name ? ` (${rule.name})` : ''}`;

/** The first rule that applies gives the models; the others' models are dropped with the reason. */
function byRules(rules: readonly SwitchyardRule[], features: RequestFeatures): { verdicts: ModelVerdict[]; matched: number } {
  const mismatches = rules.map((rule) => ruleMismatch(rule.when, features));
  const matched = mismatches.indexOf(undefined);
  const chosen = matched >= 0 ? rules[matched]!.models : [];
  const verdicts: ModelVerdict[] = chosen.map((model) => ({
    model,
    decision: 'chosen',
    reason: `${ruleName(rules[matched]!, matched)} applies`,
  }));
  rules.forEach((rule, i) => {
    if (i === matched) return;
    const reason =
      matched < 0 || i < matched ? `${ruleName(rule, i)} does not apply: ${mismatches[i]}` : `${ruleName(rule, i)} not reached`;
    for (const model of rule.models) if (!verdicts.some((v) => v.model === model)) verdicts.push({ model, decision: 'dropped', reason });
  });
  return { verdicts, matched };
}

/** passthrough: every rule's models in rule order; random: one of them drawn to go first. */
function undecided(algorithm: 'passthrough' | 'random', rules: readonly SwitchyardRule[], random: () => number): ModelVerdict[] {
  const every = [...new Set(rules.flatMap((rule) => rule.models))];
  const first = algorithm === 'random' && every.length > 0 ? every[Math.floor(random() * every.length)] : undefined;
  const ordered = first ? [first, ...every.filter((m) => m !== first)] : every;
  return ordered.map((model) => ({
    model,
    decision: 'chosen',
    reason: model === first ? 'random: drawn first' : `${algorithm}: in rule order`,
  }));
}

/**
 * The models the switchyard-router tries. Its rules come from the
 * organization's default plugins or the request. The SDK's deciding
 * algorithms (capability, the default, and stage, auto, composite) all
 * evaluate the rules in order here: the first rule whose condition holds
 * gives the models, so the request's features stand in for a judge model
 * and `min_tool_errors` for the tool-result stage signals. `passthrough`
 * decides nothing: every rule's models in rule order. `random` draws one of
 * them to go first. No rule applying leaves the choice empty.
 */
export function chooseSwitchyardModels(settings: SwitchyardSettings, features: RequestFeatures, random: () => number): RouterChoice {
  const algorithm = settings.algorithm ?? 'capability';
  const rules = settings.rules ?? [];
  const decided = algorithm === 'passthrough' || algorithm === 'random' ? undefined : byRules(rules, features);
  const verdicts = decided ? decided.verdicts : undecided(algorithm === 'random' ? 'random' : 'passthrough', rules, random);
  const models = verdicts.filter((v) => v.decision === 'chosen').map((v) => v.model);
  const rule = decided && decided.matched >= 0 ? ruleName(rules[decided.matched]!, decided.matched) : undefined;

  const params = {
    algorithm,
    features: {
      tools: features.tools,
      images: features.images,
      reasoning: features.reasoning,
      prompt_tokens: features.promptTokens,
      tool_errors: features.toolErrors,
    },
    ...(decided ? { rule: rule ?? null } : {}),
  };
  const summary =
    rules.length === 0
      ? 'no rules: set them in the organization’s default plugins (PATCH /organization/settings) or in the request'
      : models.length === 0
        ? `no rule applies to this request (${rules.length} rule${rules.length === 1 ? '' : 's'})`
        : `${models[0]} by ${rule ?? algorithm}`;
  return { models, summary, params, verdicts };
}
