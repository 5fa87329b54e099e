import { describe, expect, it } from 'vitest';
import { validationMessage } from '../chat/chat-body-validation.testing.js';
import { ResponsesRequestBody } from './schemas.js';

const responsesBodyMessage = (fields: Record<string, unknown>) =>
  validationMessage(ResponsesRequestBody, { model: 'openai/gpt-5', input: 'Hello', ...fields });

describe('ResponsesRequestBody prompt_cache_options, as OpenAI documents it', () => {
  it.each([
    ['mode implicit (OpenAI default) with ttl', { mode: 'implicit', ttl: '30m' }],
    ['mode explicit', { mode: 'explicit' }],
    ['ttl alone', { ttl: '30m' }],
    ['an empty object', {}],
    ['null', null],
  ])('accepts %s', (_, options) => {
    expect(responsesBodyMessage({ prompt_cache_options: options })).toBeNull();
  });

  it.each([
    ['another mode', { mode: 'auto' }, 'prompt_cache_options.mode must be one of "implicit", "explicit"'],
    ['ttl as a number', { ttl: 30 }, 'prompt_cache_options.ttl must be of type string or null'],
    ['a string', 'explicit', 'prompt_cache_options must be of type object or null'],
  ])('refuses %s', (_, options, message) => {
    expect(responsesBodyMessage({ prompt_cache_options: options })).toBe(message);
  });
});
