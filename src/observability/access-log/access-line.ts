import type { RequestFacts } from '../request-facts.js';

/** How much of a key's hash the line shows: enough to tell keys apart in logs, never the key. */
const KEY_HASH_PREFIX = 12;

export interface AccessFacts {
  method: string;
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** The caller's key's hash (SHA-256 hex), once authenticated. */
  keyHash: string | undefined;
  facts: RequestFacts;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** The access log's line of one request; what its runs did only when it made any. */
export function accessLine({ method, route, status, durationMs, requestId, keyHash, facts }: AccessFacts): Record<string, unknown> {
  return {
    method,
    route,
    status,
    duration_ms: round(durationMs, 2),
    request_id: requestId,
    ...(keyHash ? { key_hash: keyHash.slice(0, KEY_HASH_PREFIX) } : {}),
    ...(facts.model !== undefined ? { model: facts.model, provider: facts.provider } : {}),
    ...(facts.attempts > 0
      ? {
          tokens_in: facts.inputTokens,
          tokens_out: facts.outputTokens,
          cost_usd: round(facts.cost, 10),
          upstream_ms: round(facts.upstreamMs, 2),
        }
      : {}),
  };
}

/**
 * Whether a request's line is written: every failure of the gateway's (5xx), and of the rest the
 * share `sample` (0 to 1) draws.
 */
export function sampled(status: number, sample: number, random: () => number): boolean {
  return sample >= 1 || status >= 500 || (sample > 0 && random() < sample);
}
