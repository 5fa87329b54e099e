import { OPENAI_MODERATION_CATEGORIES } from '../../providers/openai-moderation/openai-moderation-api-types.js';

/**
 * The simulator's moderation model: an input is flagged for a category when
 * it contains one of the category's trigger words (whole words, any case).
 * Deterministic, so tests and demos know what will be flagged.
 */
export const MODERATION_TRIGGERS: Readonly<Record<string, readonly string[]>> = {
  harassment: ['idiot', 'loser'],
  hate: ['hatespeech'],
  illicit: ['methamphetamine'],
  'self-harm': ['selfharm'],
  sexual: ['explicit'],
  violence: ['kill', 'murder'],
};

const FLAGGED_SCORE = 0.91;
const CLEAN_SCORE = 0.0001;

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);

/** OpenAI's result object for one input. */
export function moderate(input: string) {
  const seen = words(input);
  const categories = Object.fromEntries(
    OPENAI_MODERATION_CATEGORIES.map((category) => [category, (MODERATION_TRIGGERS[category] ?? []).some((word) => seen.has(word))]),
  );
  return {
    flagged: Object.values(categories).some(Boolean),
    categories,
    category_scores: Object.fromEntries(Object.entries(categories).map(([category, on]) => [category, on ? FLAGGED_SCORE : CLEAN_SCORE])),
    category_applied_input_types: Object.fromEntries(OPENAI_MODERATION_CATEGORIES.map((category) => [category, ['text']])),
  };
}
