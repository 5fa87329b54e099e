import { Errors } from '../../http/errors.js';
import type { ServerToolEntry } from '../../protocol/chat.js';

/** The fusion fields of the plugin or of a `service:fusion` tool's parameters (spec 2.2 rules 1-5), as validated. */
export interface FusionFields {
  analysis_models?: string[];
  model?: string;
  max_tool_calls?: number;
  max_completion_tokens?: number;
  temperature?: number;
  preset?: FusionPresetName;
  tools?: ServerToolEntry[];
}

export type FusionPresetName = 'general-high' | 'general-budget' | 'general-fast';

/**
 * The built-in presets, models of the built-in catalog. general-high: each
 * large vendor's strongest model (the reference's quality panel: Claude
 * Opus, GPT, Gemini Pro), Claude Opus as analyst. general-budget: their
 * small models plus DeepSeek, a fraction of the price, GPT-5 mini as
 * analyst. general-fast: the lowest-latency models, Gemini Flash-Lite as
 * analyst.
 */
export const FUSION_PRESETS: Record<FusionPresetName, { analysis_models: readonly string[]; model: string }> = {
  'general-high': {
    analysis_models: ['anthropic/claude-opus-4.1', 'openai/gpt-5', 'google/gemini-2.5-pro'],
    model: 'anthropic/claude-opus-4.1',
  },
  'general-budget': {
    analysis_models: ['openai/gpt-5-mini', 'google/gemini-2.5-flash', 'anthropic/claude-haiku-4.5', 'deepseek/deepseek-chat'],
    model: 'openai/gpt-5-mini',
  },
  'general-fast': {
    analysis_models: ['google/gemini-2.5-flash-lite', 'openai/gpt-5-nano', 'x-ai/grok-4-fast'],
    model: 'google/gemini-2.5-flash-lite',
  },
};

/** The quality preset: the panel when neither analysis_models nor preset is given. */
export const DEFAULT_FUSION_PRESET: FusionPresetName = 'general-high';
export const DEFAULT_MAX_TOOL_CALLS = 4;
/** What panelists and analyst may use when `tools` is not given (an empty list gives them none). */
export const DEFAULT_FUSION_TOOLS: readonly ServerToolEntry[] = [{ type: 'service:web_search' }, { type: 'service:web_fetch' }];

export interface FusionSettings {
  /** The preset that filled in the panel or the analyst; null when the request named both. */
  preset: FusionPresetName | null;
  analysisModels: string[];
  model: string;
  maxToolCalls: number;
  tools: ServerToolEntry[];
  maxCompletionTokens?: number;
  temperature?: number;
}

/**
 * The fusion run a request asks for. The preset (default general-high)
 * expands server-side into its panel and analyst, of which only the models
 * this gateway serves are kept; explicit `analysis_models` and `model` win.
 * The analyst is `model`, else the caller's own model (the server tool's
 * outer model), else the preset's analyst, else its first served panelist.
 * A named model the gateway does not serve, or a preset none of whose
 * models it serves, is a 400.
 */
export function fusionSettings(fields: FusionFields, served: (model: string) => boolean, callerModel?: string): FusionSettings {
  const presetName = fields.preset ?? DEFAULT_FUSION_PRESET;
  const preset = FUSION_PRESETS[presetName];
  const presetPanel = preset.analysis_models.filter(served);
  fields.analysis_models?.forEach((model, i) => {
    if (!served(model)) throw Errors.fusionModelUnavailable(`plugins fusion analysis_models[${i}]`, model);
  });
  if (fields.model !== undefined && !served(fields.model)) throw Errors.fusionModelUnavailable('plugins fusion model', fields.model);
  const analysisModels = fields.analysis_models ?? presetPanel;
  const model = fields.model ?? callerModel ?? [preset.model, ...preset.analysis_models].find(served) ?? analysisModels[0];
  if (analysisModels.length === 0 || model === undefined)
    throw Errors.fusionPresetUnavailable(presetName, preset.analysis_models.join(', '));
  const usedPreset = fields.analysis_models === undefined || (fields.model === undefined && callerModel === undefined);
  return {
    preset: usedPreset ? presetName : null,
    analysisModels,
    model,
    maxToolCalls: fields.max_tool_calls ?? DEFAULT_MAX_TOOL_CALLS,
    tools: fields.tools ?? [...DEFAULT_FUSION_TOOLS],
    ...(fields.max_completion_tokens !== undefined ? { maxCompletionTokens: fields.max_completion_tokens } : {}),
    ...(fields.temperature !== undefined ? { temperature: fields.temperature } : {}),
  };
}
