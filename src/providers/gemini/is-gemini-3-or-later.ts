/**
 * Whether a model id names Gemini 3 or later: those take a thinkingLevel and
 * refuse replayed function calls without a thought signature. Ids that are
 * not recognisably so (Gemini 2.x, Gemma, aliases such as
 * gemini-flash-latest) count as older, because the older settings are the
 * ones every model accepts (Gemini 3 still takes a thinkingBudget).
 */
export function isGemini3OrLater(model: string): boolean {
  const major = /^gemini-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) >= 3;
}
