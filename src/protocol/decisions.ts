/**
 * The Decisions API (OpenRouter's alpha `POST /api/alpha/decisions`): typed
 * questions about one `state`, answered with probabilities instead of text.
 * A decision model speaks it natively; any chat model serves it through the
 * gateway (decisions/). Between the route and the adapter everything speaks these.
 */

/** What a question is asked about: text, or JSON the model reads as text. */
export type DecisionState = string | Record<string, unknown> | unknown[];

/** One option of a choice: its description, or null when its id says it all. */
export type ChoiceCriteria = Record<string, string | null>;

export type DecisionQuestion =
  | { type: 'choice'; instructions: string; criteria: ChoiceCriteria }
  /** A yes/no question; `criteria.true`/`criteria.false` optionally describe each side. */
  | { type: 'noul'; instructions: string; criteria?: { true?: string; false?: string } }
  /** Ordered levels, lowest first. */
  | { type: 'score'; instructions: string; criteria: string[] };

/** A validated decisions request; `questions` keyed by the caller's ids. */
export interface DecisionsRequest {
  model: string;
  state: DecisionState;
  questions: Record<string, DecisionQuestion>;
  session_id?: string;
  user?: string;
  provider?: Record<string, unknown> | null;
}

export interface ChoiceAnswer {
  type: 'choice';
  choice: string;
  /** Per option; absent when the endpoint gave none (one answer, its confidence unknown). */
  probabilities?: Record<string, number>;
  confidence?: number;
}

/** `noul` is the probability of yes. */
export interface NoulAnswer {
  type: 'noul';
  noul: number;
}

export interface ScoreAnswer {
  type: 'score';
  /** The probability-weighted position among the levels, 0 (lowest) to levels − 1. */
  score: number;
  /** Each level's position (as a string key) → its text. */
  legend: Record<string, string>;
  probabilities?: Record<string, number>;
  confidence?: number;
}

export type DecisionAnswer = ChoiceAnswer | NoulAnswer | ScoreAnswer;

/** What a provider reported it consumed; each is absent when it did not say. */
export interface ReportedDecisionsUsage {
  input_tokens?: number;
  output_tokens?: number;
}

/** What a model said of a question: a probability per option (in option order), or only the option it picked. */
export type OptionReading = { kind: 'probabilities'; probabilities: readonly number[] } | { kind: 'picked'; index: number };

/** A native decision model's answer, as its adapter reads it: what it said of each question, by question id. */
export interface UpstreamDecisions {
  id?: string;
  readings: Record<string, OptionReading>;
  usage: ReportedDecisionsUsage;
}

export interface DecisionsUsage {
  input_tokens: number;
  output_tokens: number;
  /** USD, added by the gateway from the catalog's pricing. */
  cost: number;
}

export interface DecisionsResponse {
  id: string;
  model: string;
  provider: string;
  answers: Record<string, DecisionAnswer>;
  usage: DecisionsUsage;
}
