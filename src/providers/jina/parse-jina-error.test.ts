import { describe, expect, it } from 'vitest';
import { parseJinaError } from './parse-jina-error.js';

describe('parseJinaError', () => {
  it("reads Jina's FastAPI detail", () => {
    expect(parseJinaError({ detail: 'Failed to authenticate with the provided api key' })).toEqual({
      message: 'Failed to authenticate with the provided api key',
    });
  });

  it('reads a FastAPI validation list, naming each field', () => {
    const body = { detail: [{ loc: ['body', 'top_n'], msg: 'Input should be greater than 0', type: 'greater_than' }, { msg: 'bad' }] };
    expect(parseJinaError(body)).toEqual({ message: 'body.top_n: Input should be greater than 0; bad' });
  });

  it('reads the OpenAI-style errors of hosts that copy the protocol (Together, vLLM)', () => {
    expect(parseJinaError({ error: { message: 'model not found', type: 'invalid_request_error', code: 'model_not_found' } })).toEqual({
      message: 'model not found',
      code: 'model_not_found',
    });
  });

  it('keeps a detail of another shape as JSON, and knows nothing of a text body', () => {
    expect(parseJinaError({ detail: { reason: 'x' } })).toEqual({ message: '{"reason":"x"}' });
    expect(parseJinaError('<html>502</html>')).toEqual({});
  });
});
