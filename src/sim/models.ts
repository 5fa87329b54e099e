/** The models `GET /v1/models` lists. Any other name works too: the simulator answers for whatever model it is asked. */
export const SIM_MODELS = ['sim-model', 'sim-mini', 'sim-reason', 'sim-decide'] as const;

/** 2025-01-01T00:00:00Z: a fixed date keeps the listing deterministic. */
const CREATED = 1735689600;

/** OpenAI's list shape, serialized once. */
export const MODEL_LIST_JSON = JSON.stringify({
  object: 'list',
  data: SIM_MODELS.map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'model-gateway-sim' })),
});
