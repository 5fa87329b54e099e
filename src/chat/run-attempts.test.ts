import { describe, expect, it } from 'vitest';
import { GatewayError } from '../protocol/gateway-error.js';
import { UpstreamError } from '../protocol/upstream.js';
import { runAttempts } from './run-attempts.js';

type E = { provider: string };
const attempts = ['a', 'b', 'c'].map((provider) => ({ modelId: 'acme/fast', endpoint: { provider } }));

function harness(behaviour: Record<string, (call: number) => unknown>) {
  const calls: string[] = [];
  const slept: number[] = [];
  const counts: Record<string, number> = {};
  const run = () =>
    runAttempts<E, string>({
      model: 'acme/fast',
      attempts,
      signal: new AbortController().signal,
      now: () => 0,
      sleep: async (ms) => void slept.push(ms),
      budget: { maxWaitMs: 2000, totalWaitMs: 3000 },
      tryOne: async ({ endpoint }) => {
        calls.push(endpoint.provider);
        counts[endpoint.provider] = (counts[endpoint.provider] ?? 0) + 1;
        const outcome = behaviour[endpoint.provider]?.(counts[endpoint.provider]!);
        if (outcome instanceof Error) throw outcome;
        return `ok from ${endpoint.provider}`;
      },
    });
  return { run, calls, slept };
}

const http = (status: number, retryAfterMs?: number) =>
  new UpstreamError('status', `HTTP ${status}`, { status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

describe('runAttempts', () => {
  it('returns the first attempt that succeeds', async () => {
    const h = harness({});
    const { result, outcomes } = await h.run();
    expect(result).toBe('ok from a');
    expect(outcomes).toEqual([{ model: 'acme/fast', provider: 'a', status: 'success', latency_ms: 0 }]);
  });

  it('falls back past connection errors, timeouts and 5xx', async () => {
    const h = harness({ a: () => new UpstreamError('connection', 'ECONNREFUSED'), b: () => http(503) });
    const { result, outcomes } = await h.run();
    expect(result).toBe('ok from c');
    expect(outcomes.map((o) => o.status)).toEqual(['failed', 'failed', 'success']);
  });

  it('returns a request error at once without trying further', async () => {
    const h = harness({ a: () => http(400) });
    await expect(h.run()).rejects.toMatchObject({ statusCode: 400 });
    expect(h.calls).toEqual(['a']);
  });

  it('waits out a short Retry-After on the same endpoint once', async () => {
    const h = harness({ a: (n) => (n === 1 ? http(429, 700) : undefined) });
    expect((await h.run()).result).toBe('ok from a');
    expect(h.calls).toEqual(['a', 'a']);
    expect(h.slept).toEqual([700]);
  });

  it('moves on when Retry-After is beyond the budget', async () => {
    const h = harness({ a: () => http(429, 60_000) });
    expect((await h.run()).result).toBe('ok from b');
    expect(h.slept).toEqual([]);
  });

  it('says which attempts were made when all fail', async () => {
    const h = harness({ a: () => http(500), b: () => new UpstreamError('timeout', 'slow'), c: () => http(502) });
    const error = await h.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).statusCode).toBe(502);
    expect((error as GatewayError).metadata?.attempts).toHaveLength(3);
  });
});
