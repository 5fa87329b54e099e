/** What a model router did with one model, and why. */
export interface ModelVerdict {
  model: string;
  decision: 'chosen' | 'dropped';
  reason: string;
}

/**
 * A model router's answer: the models to try, best first (the planner then
 * orders each one's endpoints by the provider preferences), and its account
 * of the decision for service_metadata and the ledger.
 */
export interface RouterChoice {
  models: string[];
  summary: string;
  /** The settings the decision rested on (task, cost band, quality floor…). */
  params: Record<string, unknown>;
  /** Every model considered: the chosen ones in order, then the dropped ones. */
  verdicts: ModelVerdict[];
}
