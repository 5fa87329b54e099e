import { describe, expect, it } from 'vitest';
import { newFacts } from '../request-facts.js';
import { accessLine, sampled } from './access-line.js';

describe('accessLine', () => {
  it('says what a chat did: key hash prefix, model, provider, tokens and cost', () => {
    const facts = {
      ...newFacts(0),
      attempts: 2,
      upstreamMs: 40.123,
      model: 'sim/fast',
      provider: 'alpha',
      inputTokens: 12,
      outputTokens: 7,
      cost: 0.0000260000001,
    };
    expect(
      accessLine({
        method: 'POST',
        route: '/api/v1/chat/completions',
        status: 200,
        durationMs: 45.6789,
        requestId: 'req-1',
        keyHash: 'a'.repeat(64),
        facts,
      }),
    ).toEqual({
      method: 'POST',
      route: '/api/v1/chat/completions',
      status: 200,
      duration_ms: 45.68,
      request_id: 'req-1',
      key_hash: 'aaaaaaaaaaaa',
      model: 'sim/fast',
      provider: 'alpha',
      tokens_in: 12,
      tokens_out: 7,
      cost_usd: 0.000026,
      upstream_ms: 40.12,
    });
  });

  it('leaves out what a request without a key or a run does not have', () => {
    expect(
      accessLine({ method: 'GET', route: '/health', status: 200, durationMs: 0.4, requestId: 'r', keyHash: undefined, facts: newFacts(0) }),
    ).toEqual({
      method: 'GET',
      route: '/health',
      status: 200,
      duration_ms: 0.4,
      request_id: 'r',
    });
  });
});

describe('sampled', () => {
  it('keeps every line at 1 and none but failures at 0', () => {
    expect(sampled(200, 1, () => 0.99)).toBe(true);
    expect(sampled(200, 0, () => 0)).toBe(false);
    expect(sampled(502, 0, () => 0.99)).toBe(true);
  });

  it('draws the share in between', () => {
    expect(sampled(200, 0.25, () => 0.2)).toBe(true);
    expect(sampled(404, 0.25, () => 0.3)).toBe(false);
  });
});
