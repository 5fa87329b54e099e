import type { Endpoint, ModelInfo, ProviderFacts } from '../types.js';

/** One model as a built-in provider serves it; the context length defaults to the model's. */
export interface BuiltinOffering extends Omit<Endpoint, 'provider'> {
  model: ModelInfo;
}

/** A well-known provider, enabled when its API key is in the environment. */
export interface BuiltinProvider {
  id: string;
  name: string;
  kind: string;
  baseUrl: string;
  /** The first one set is used. */
  apiKeyEnv: readonly string[];
  /** Overrides baseUrl, e.g. to go through a proxy. */
  baseUrlEnv: string;
  offerings: readonly BuiltinOffering[];
  facts: ProviderFacts;
}
