import { describe, expect, it } from 'vitest';
import { Errors } from '../http/errors.js';
import { askedModel, refusalRow } from './refusal-row.js';

describe('askedModel', () => {
  it.each([
    [{ model: 'sim/chat' }, 'sim/chat'],
    [{ models: [7, 'sim/a', 'sim/b'] }, 'sim/a'],
    [{ model: '', models: ['sim/b'] }, 'sim/b'],
    [{ model: 5 }, 'unknown'],
    [undefined, 'unknown'],
    ['a string body', 'unknown'],
    [{ model: 'x'.repeat(1_000) }, 'x'.repeat(200)],
  ])('%j asks for %s', (body, model) => {
    expect(askedModel(body)).toBe(model);
  });
});

describe('refusalRow', () => {
  it('is an error row at no cost, with no provider nor latency, naming the error, the key and the request', () => {
    const key = { hash: 'h', organization_id: 'o', workspace_id: 'w', app_id: null, external_user: null };
    const now = new Date('2026-11-20T10:00:00.000Z');
    const row = refusalRow(
      {
        key,
        requestId: 'req_1',
        body: { model: 'sim/chta', stream: true },
        apiType: 'completions',
        origin: null,
        userAgent: 'curl/8',
        error: Errors.modelNotFound('sim/chta', 'sim/chat'),
      },
      now,
    );
    expect(row).toMatchObject({
      organization_id: 'o',
      workspace_id: 'w',
      api_key_hash: 'h',
      request_id: 'req_1',
      model: 'sim/chta',
      provider_name: null,
      api_type: 'completions',
      status: 'error',
      streamed: 1,
      total_cost: 0,
      latency_ms: null,
      error_code: 404,
      error_name: 'GW_ERR_MODEL_NOT_FOUND',
      error_message: 'Model sim/chta does not exist or is not enabled on this gateway: did you mean sim/chat?',
      user_agent: 'curl/8',
      created_at: '2026-11-20T10:00:00.000Z',
    });
    expect(row.id).toMatch(/^gen-1795168800-/);
  });
});
