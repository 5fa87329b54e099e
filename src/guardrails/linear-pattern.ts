import { RE2JS } from 're2js';

/**
 * A regular expression compiled by RE2JS, the JavaScript port of RE2: it
 * matches in time linear in the input whatever the pattern, so a guardrail's
 * pattern cannot stall the gateway (no catastrophic backtracking). Syntax
 * that needs backtracking (backreferences, lookaround) is refused when the
 * pattern is compiled.
 */
export type LinearPattern = RE2JS;

export type CompiledPattern = { ok: true; pattern: LinearPattern } | { ok: false; reason: string };

export function compileLinearPattern(source: string, options: { caseInsensitive?: boolean } = {}): CompiledPattern {
  try {
    return { ok: true, pattern: RE2JS.compile(source, options.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The pattern of a source the gateway itself wrote: a failure is a programming error. */
export function builtinPattern(source: string, options: { caseInsensitive?: boolean } = {}): LinearPattern {
  const compiled = compileLinearPattern(source, options);
  if (!compiled.ok) throw new Error(`built-in pattern ${source}: ${compiled.reason}`);
  return compiled.pattern;
}

/** A literal string as a pattern that matches only itself. */
export const quotePattern = (literal: string): string => RE2JS.quote(literal);
