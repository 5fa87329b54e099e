import type { ModelScores } from '../../protocol/routing-vocabulary.js';

/*
 * Scores of the built-in models for the routing plugins, 0–1 (higher is
 * better), rounded to two decimals. Each comes from the benchmark results the
 * vendor published at release (2024–2025), read as a fraction of the maximum:
 *
 * - coding: SWE-bench Verified (the pareto-router's quality axis);
 * - math: AIME (2025 where published, else 2024), or MATH scaled down for
 *   models with no AIME result;
 * - general (overall quality): GPQA Diamond;
 * - translation: multilingual MMLU (MMMLU) or MGSM;
 * - creative_writing: the model's standing in LMArena's creative-writing
 *   category in 2025, mapped to 0.4–0.9.
 *
 * Where a vendor published no figure, the score is interpolated from the
 * model's family and size. They are approximate and meant for ranking models
 * against each other; a config file's `scores` replace them per task.
 */
const score = (general: number, coding: number, math: number, creative_writing: number, translation: number): ModelScores => ({
  general,
  coding,
  math,
  creative_writing,
  translation,
});

export const BUILTIN_SCORES: ReadonlyMap<string, ModelScores> = new Map([
  ['openai/gpt-5', score(0.87, 0.75, 0.95, 0.85, 0.89)],
  ['openai/gpt-5-mini', score(0.82, 0.71, 0.91, 0.75, 0.86)],
  ['openai/gpt-5-nano', score(0.71, 0.55, 0.85, 0.6, 0.8)],
  ['openai/gpt-4.1', score(0.66, 0.55, 0.48, 0.8, 0.87)],
  ['openai/gpt-4.1-mini', score(0.65, 0.24, 0.5, 0.7, 0.79)],
  ['openai/gpt-4.1-nano', score(0.5, 0.1, 0.29, 0.55, 0.66)],
  ['openai/gpt-4o', score(0.54, 0.33, 0.13, 0.8, 0.81)],
  ['openai/gpt-4o-mini', score(0.4, 0.09, 0.1, 0.65, 0.7)],
  ['openai/o3', score(0.83, 0.69, 0.89, 0.75, 0.88)],
  ['openai/o4-mini', score(0.81, 0.68, 0.93, 0.65, 0.83)],
  ['openai/gpt-oss-120b', score(0.8, 0.62, 0.92, 0.6, 0.8)],
  ['anthropic/claude-opus-4.1', score(0.81, 0.75, 0.78, 0.9, 0.89)],
  ['anthropic/claude-sonnet-4.5', score(0.83, 0.77, 0.87, 0.88, 0.89)],
  ['anthropic/claude-sonnet-4', score(0.75, 0.73, 0.71, 0.85, 0.86)],
  ['anthropic/claude-haiku-4.5', score(0.73, 0.73, 0.6, 0.75, 0.83)],
  ['anthropic/claude-3.5-haiku', score(0.42, 0.41, 0.2, 0.65, 0.72)],
  ['google/gemini-2.5-pro', score(0.86, 0.64, 0.87, 0.88, 0.9)],
  ['google/gemini-2.5-flash', score(0.83, 0.5, 0.72, 0.78, 0.87)],
  ['google/gemini-2.5-flash-lite', score(0.65, 0.32, 0.5, 0.65, 0.81)],
  ['google/gemini-2.0-flash', score(0.62, 0.25, 0.3, 0.72, 0.82)],
  ['deepseek/deepseek-chat', score(0.7, 0.6, 0.6, 0.75, 0.8)],
  ['deepseek/deepseek-reasoner', score(0.81, 0.58, 0.88, 0.78, 0.8)],
  ['mistralai/mistral-large-2411', score(0.5, 0.35, 0.3, 0.75, 0.85)],
  ['mistralai/mistral-medium-3', score(0.58, 0.4, 0.45, 0.72, 0.84)],
  ['mistralai/mistral-small-3.2-24b-instruct', score(0.46, 0.3, 0.3, 0.6, 0.75)],
  ['mistralai/codestral-2501', { general: 0.45, coding: 0.45 }],
  ['x-ai/grok-4', score(0.88, 0.7, 0.92, 0.8, 0.85)],
  ['x-ai/grok-4-fast', score(0.86, 0.6, 0.92, 0.72, 0.82)],
  ['x-ai/grok-3-mini', score(0.8, 0.4, 0.85, 0.6, 0.75)],
  ['x-ai/grok-code-fast-1', { general: 0.6, coding: 0.71 }],
  ['meta-llama/llama-3.3-70b-instruct', score(0.5, 0.3, 0.35, 0.68, 0.8)],
  ['meta-llama/llama-3.1-8b-instruct', score(0.3, 0.1, 0.15, 0.45, 0.6)],
  ['meta-llama/llama-4-scout', score(0.57, 0.25, 0.3, 0.6, 0.78)],
  ['qwen/qwen3-32b', score(0.65, 0.4, 0.8, 0.62, 0.8)],
  ['qwen/qwen-2.5-72b-instruct', score(0.49, 0.35, 0.4, 0.65, 0.8)],
]);
