/**
 * A guardrail as the request path uses it: compiled once per organization
 * (compile-guardrail.ts), with its spending limit (guardrail-budget.ts), and
 * the scope through which it applies to a request. Types only.
 */
import type { GuardrailScope, LimitReset } from '../store/schema.js';
import type { ContentFilterAction, GuardrailRules } from './guardrail-rules.js';
import type { LinearPattern } from './linear-pattern.js';

/** One thing a guardrail looks for in request text. */
export interface ContentRule {
  action: ContentFilterAction;
  /** The redaction placeholder. */
  label: string;
  pattern: LinearPattern;
  /** A further check of each match (the Luhn check of card numbers). */
  accept?: (match: string) => boolean;
  /** What a match is reported as in `patterns`: the filter's pattern, builtin or keyword, never the matched text. */
  report: (match: string) => string;
  /** Only user messages are scanned (the prompt-injection builtin's `scan_scope: user_only`). */
  userOnly: boolean;
}

/** A guardrail ready to run: its rules compiled once, when the organization's cache is filled. */
export interface CompiledGuardrail {
  id: string;
  name: string;
  rules: GuardrailRules;
  content: ContentRule[];
  /** Its spending limit, when it has one (filled by the cache from the stored columns). */
  budget?: GuardrailBudget | null;
}

/** A guardrail that applies to a request, and through what it was assigned. */
export interface ApplicableGuardrail {
  guardrail: CompiledGuardrail;
  scope: GuardrailScope;
}

/** A guardrail's spending limit: `limitUsd` per window of `resetInterval` (all time when null). */
export interface GuardrailBudget {
  limitUsd: number;
  resetInterval: LimitReset | null;
  includeByok: boolean;
}
