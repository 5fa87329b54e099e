import { describe, expect, it } from 'vitest';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { parseOpenAIError } from './parse-openai-error.js';

describe('parseOpenAIError', () => {
  it('reads reasoning-model-legacy-parameter-error: the code, not the type', () => {
    expect(parseOpenAIError(readFixtureJson('openai/reasoning-model-legacy-parameter-error.json'))).toEqual({
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      code: 'unsupported_parameter',
    });
  });

  it('reads openai-error.1 (insufficient_quota)', () => {
    expect(parseOpenAIError(readFixtureJson('openai/openai-error.1.json'))).toEqual({
      message: expect.stringMatching(/^You exceeded your current quota/),
      code: 'insufficient_quota',
    });
  });

  it('falls back to the type when the code is null (server_error)', () => {
    expect(parseOpenAIError({ error: { message: 'The server had an error', type: 'server_error', code: null } })).toEqual({
      message: 'The server had an error',
      code: 'server_error',
    });
  });

  it('reads the flat vLLM/Mistral shape, stringifying an object message', () => {
    expect(parseOpenAIError({ object: 'error', message: 'bad model', type: 'NotFoundError', code: 404 })).toEqual({
      message: 'bad model',
      code: 'NotFoundError',
    });
    expect(parseOpenAIError({ object: 'error', message: { detail: [{ msg: 'extra' }] }, type: 'invalid_request_message_error' })).toEqual({
      message: '{"detail":[{"msg":"extra"}]}',
      code: 'invalid_request_message_error',
    });
  });

  it("reads Ollama's string error", () => {
    expect(parseOpenAIError({ error: 'model "x" not found' })).toEqual({ message: 'model "x" not found' });
  });

  it('knows nothing of a text body', () => {
    expect(parseOpenAIError('<html>502</html>')).toEqual({});
    expect(parseOpenAIError(undefined)).toEqual({});
  });
});
