/**
 * How an adapter reports a usage figure it read from an upstream, so that
 * accounting/check-usage.ts can tell a figure it may bill from one it must replace.
 */

/** A figure billing can take: a whole number ≥ 0 that a double holds exactly. */
export const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * A part of a sum an upstream reports in pieces (Anthropic's prompt, Gemini's
 * completion): 0 when left out, NaN when it is no count, so that the sum is
 * none and checkUsage replaces it rather than bill what the other parts add up to.
 */
export const reportedCount = (value: unknown): number => (value == null ? 0 : isCount(value) ? value : NaN);
