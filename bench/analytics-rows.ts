// A month of a busy organization's ledger rows, made up but shaped like real traffic, for bench/analytics.ts.
import { computeCost } from '../src/accounting/compute-cost.js';
import type { Pricing } from '../src/catalog/types.js';
import type { GenerationRecord } from '../src/store/schema.js';
import { newGenerationId } from '../src/util/ids.js';

export const SHAPE = {
  keys: 20,
  models: 15,
  providers: 6,
  workspaces: 3,
  days: 30,
  errorRate: 0.04,
  /** Apps (HTTP-Referer and X-Title) the keys' requests come from; a request names none at this rate. */
  apps: 12,
  noAppRate: 0.2,
  /** A key's next request starts a new session at this rate (sessions of 10 turns on average); some requests have none. */
  newSessionRate: 0.1,
  noSessionRate: 0.3,
  toolCallRate: 0.1,
} as const;

/** mulberry32: the same rows on every run and engine, so that the two engines answer the same data. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An index drawn with weights 1/(i+1)^s: a few keys and models take most of the traffic, as they do. */
function zipf(weights: number, s: number, rand: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < weights; i++) cumulative.push((total += 1 / (i + 1) ** s));
  return () => {
    const x = rand() * total;
    let i = 0;
    while (cumulative[i]! < x) i++;
    return i;
  };
}

export interface Caller {
  hash: string;
  workspaceId: string;
}

interface Model {
  id: string;
  /** The first serves most requests; the others take fallbacks. */
  providers: string[];
  pricing: Pricing;
}

const providers = Array.from({ length: SHAPE.providers }, (_, i) => `provider-${i + 1}`);

/** The models' ids, the most used first. */
export const MODEL_IDS = Array.from({ length: SHAPE.models }, (_, i) => `vendor-${(i % SHAPE.providers) + 1}/model-${i + 1}`);

function catalog(rand: () => number): Model[] {
  return MODEL_IDS.map((id, i) => {
    const first = i % SHAPE.providers;
    const count = 1 + (i % 3);
    const prompt = [0.15, 0.5, 1, 2.5, 3, 10][i % 6]! / 1e6;
    return {
      id,
      providers: Array.from({ length: count }, (_, j) => providers[(first + j) % SHAPE.providers]!),
      pricing: { prompt, completion: prompt * (2 + Math.floor(rand() * 3)) },
    };
  });
}

/**
 * `count` ledger rows of `callers` over the `SHAPE.days` days before `end`,
 * in time order, `batch` at a time: more by day than by night and on weekdays,
 * each key using a handful of models, most requests served by a model's first
 * provider, some errors (a few that no provider served). Token counts and
 * costs vary as a chat's do; costs come from the gateway's own computeCost.
 */
export function* ledgerRows(
  callers: readonly Caller[],
  organizationId: string,
  count: number,
  end: Date,
  batch: number,
): Generator<GenerationRecord[]> {
  const rand = random(2026);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const models = catalog(rand);
  const pickCaller = zipf(callers.length, 0.9, rand);
  const pickModel = zipf(5, 1, rand);
  // Each key's five models, the first its favourite.
  const keyModels = callers.map(() => Array.from({ length: 5 }, () => models[Math.floor(rand() * models.length)]!));
  // Each key's app (a few keys share one), and its session under way.
  const keyApps = callers.map((_, i) => i % SHAPE.apps);
  const sessions = callers.map(() => 0);

  const hours = SHAPE.days * 24;
  const endHour = Math.floor(end.getTime() / 3_600_000) * 3_600_000;
  const startMs = endHour - hours * 3_600_000;
  const weight = (h: number) => {
    const at = new Date(startMs + h * 3_600_000);
    const weekend = at.getUTCDay() === 0 || at.getUTCDay() === 6 ? 0.5 : 1;
    return weekend * (1 + 0.7 * Math.sin(((at.getUTCHours() - 8) / 24) * 2 * Math.PI));
  };
  const weights = Array.from({ length: hours }, (_, h) => weight(h));
  const total = weights.reduce((a, b) => a + b, 0);

  let rows: GenerationRecord[] = [];
  let made = 0;
  for (let h = 0; h < hours && made < count; h++) {
    const inHour = h === hours - 1 ? count - made : Math.min(count - made, Math.round((weights[h]! / total) * count));
    for (let i = 0; i < inHour; i++) {
      const at = new Date(startMs + h * 3_600_000 + Math.floor(((i + rand()) / inHour) * 3_600_000));
      const callerIndex = pickCaller();
      const caller = callers[callerIndex]!;
      const model = keyModels[callerIndex]![pickModel()]!;
      const app = rand() < SHAPE.noAppRate ? undefined : keyApps[callerIndex]!;
      if (rand() < SHAPE.newSessionRate) sessions[callerIndex]! += 1;
      const session = rand() < SHAPE.noSessionRate ? null : `session-${callerIndex}-${sessions[callerIndex]}`;
      const toolCall = rand() < SHAPE.toolCallRate;
      const fellBack = model.providers.length > 1 && rand() < 0.15;
      const provider = model.providers[fellBack ? 1 + Math.floor(rand() * (model.providers.length - 1)) : 0]!;
      const failed = rand() < SHAPE.errorRate;
      const unserved = failed && rand() < 0.25;
      const prompt = failed ? 0 : Math.round(Math.exp(6.5 + normal()));
      const completion = failed ? 0 : Math.round(Math.exp(5 + 0.8 * normal()));
      const cached = !failed && rand() < 0.3 ? Math.floor(prompt * rand()) : 0;
      const reasoning = !failed && rand() < 0.2 ? Math.round(completion * rand()) : 0;
      const usage = {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        prompt_tokens_details: { cached_tokens: cached },
      };
      const cost = failed ? { total: 0, cacheDiscount: 0 } : computeCost(model.pricing, usage, at);
      const latency = Math.round(failed ? 50 + 400 * rand() : 300 + Math.exp(7 + 0.6 * normal()));
      const ttft = failed ? null : Math.round(latency * (0.1 + 0.3 * rand()));
      const streamed = rand() < 0.5 ? 1 : 0;
      const id = newGenerationId(at);
      rows.push({
        id,
        organization_id: organizationId,
        workspace_id: caller.workspaceId,
        api_key_hash: caller.hash,
        request_id: `req-${made}`,
        upstream_id: failed ? null : `chatcmpl-${made}`,
        model: model.id,
        provider_name: unserved ? null : provider,
        upstream_model: unserved ? null : model.id.split('/')[1]!,
        app_id: null,
        external_user: null,
        user_hash: null,
        session_id: session,
        api_type: 'completions',
        status: failed ? 'error' : 'success',
        streamed,
        cancelled: 0,
        finish_reason: failed ? null : toolCall ? 'tool_calls' : 'stop',
        native_finish_reason: failed ? null : 'stop',
        service_tier: null,
        tokens_prompt: prompt,
        tokens_completion: completion,
        tokens_cached: cached,
        tokens_cache_write: 0,
        tokens_reasoning: reasoning,
        total_cost: cost.total,
        cache_discount: cost.cacheDiscount,
        latency_ms: latency,
        ttft_ms: ttft,
        generation_time_ms: ttft === null ? null : latency - ttft,
        error_code: failed ? (unserved ? 503 : 429) : null,
        error_message: failed ? (unserved ? 'No endpoint could serve the request' : 'upstream answered 429: rate limit exceeded') : null,
        routing: JSON.stringify({
          planned: model.providers.map((p) => ({ model: model.id, provider: p })),
          attempts: [{ provider, status: failed ? 429 : 200 }],
        }),
        origin: app === undefined ? null : `https://app-${app + 1}.example/chat`,
        app_title: app === undefined ? null : `App ${app + 1}`,
        user_agent: 'bench/analytics',
        created_at: at.toISOString(),
        parent_generation_id: null,
        usage_estimated: 0,
      });
      made++;
      if (rows.length === batch) {
        yield rows;
        rows = [];
      }
    }
  }
  if (rows.length > 0) yield rows;
}
