import type { GenerationRecord } from '../store/schema.js';

let next = 0;

/** A ledger row of a successful generation that cost $0.50, each call with an id of its own, for the rollup tests. */
export const generationRow = (fields: Partial<GenerationRecord> = {}): GenerationRecord => ({
  id: `gen-${++next}`,
  organization_id: 'org',
  workspace_id: 'ws',
  api_key_hash: 'key',
  model: 'acme/fast',
  provider_name: 'acme',
  api_type: 'completions',
  status: 'success',
  streamed: 0,
  cancelled: 0,
  total_cost: 0.5,
  tokens_prompt: 10,
  tokens_completion: 4,
  tokens_reasoning: 1,
  tokens_cached: 2,
  latency_ms: 200,
  created_at: '2026-11-23T12:10:00.000Z',
  ...fields,
});
