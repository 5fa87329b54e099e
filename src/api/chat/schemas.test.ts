import { describe, expect, it } from 'vitest';
import { chatBodyMessage, validationMessage } from './chat-body-validation.testing.js';
import { ChatRequestBody, ChatRequestHeaders } from './schemas.js';

const EFFORTS = '"max", "xhigh", "high", "medium", "low", "minimal", "none", null';
const metadataOf = (pairs: number) => Object.fromEntries(Array.from({ length: pairs }, (_, i) => [`k${i}`, 'v']));

describe('ChatRequestBody top-level fields', () => {
  const accepted: [string, Record<string, unknown>][] = [
    ['no model (the default model applies later)', { model: undefined }],
    ['model and models', { models: ['openai/gpt-4o', 'anthropic/claude-sonnet-4'] }],
    ['stream with stream_options', { stream: true, stream_options: { include_usage: true } }],
    ['null stream_options', { stream_options: null }],
    ['temperature at its bounds', { temperature: 2 }],
    ['temperature 0', { temperature: 0 }],
    ['null temperature', { temperature: null }],
    ['top_p at its bounds', { top_p: 1 }],
    ['top_k 40', { top_k: 40 }],
    ['top_k -1 (some providers read it as "no limit")', { top_k: -1 }],
    ['top_a and min_p', { top_a: 0.5, min_p: 0.1 }],
    ['penalties at their bounds', { frequency_penalty: -2, presence_penalty: 2 }],
    ['repetition_penalty', { repetition_penalty: 1.1 }],
    ['the deprecated max_tokens', { max_tokens: 100 }],
    ['max_completion_tokens 1', { max_completion_tokens: 1 }],
    ['null token limits', { max_tokens: null, max_completion_tokens: null }],
    ['logprobs with top_logprobs 20', { logprobs: true, top_logprobs: 20 }],
    ['top_logprobs 0', { top_logprobs: 0 }],
    ['logit_bias', { logit_bias: { '50256': -100, '1': 2.5 } }],
    ['null logit_bias', { logit_bias: null }],
    ['seed', { seed: 42 }],
    ['stop as a string', { stop: '\n' }],
    ['stop as 4 strings', { stop: ['a', 'b', 'c', 'd'] }],
    ['null stop', { stop: null }],
    ['parallel_tool_calls', { parallel_tool_calls: false }],
    ['modalities', { modalities: ['text', 'image', 'audio'] }],
    ['image_config of strings, numbers and arrays', { image_config: { aspect_ratio: '16:9', n: 2, sizes: ['1K', 2] } }],
    ['metadata of 16 pairs', { metadata: metadataOf(16) }],
    ['metadata with a 512-character value', { metadata: { note: 'x'.repeat(512) } }],
    ['user', { user: 'user-123' }],
    ['session_id of 256 characters', { session_id: 's'.repeat(256) }],
    ['prompt_cache_key', { prompt_cache_key: 'conversation-1' }],
    ['prompt_cache_options', { prompt_cache_options: { mode: 'explicit', ttl: '1h' } }],
    ['null prompt_cache_options', { prompt_cache_options: null }],
    ['cache_control without ttl', { cache_control: { type: 'ephemeral' } }],
    ['cache_control with ttl 1h', { cache_control: { type: 'ephemeral', ttl: '1h' } }],
    ['prediction as a string', { prediction: { type: 'content', content: 'predicted' } }],
    ['prediction as text parts', { prediction: { type: 'content', content: [{ type: 'text', text: 'predicted' }] } }],
    ['null prediction', { prediction: null }],
    ['service_tier fast (an alias)', { service_tier: 'fast' }],
    ['service_tier scale', { service_tier: 'scale' }],
    ['null service_tier', { service_tier: null }],
    ['debug', { debug: { echo_upstream_body: true } }],
    ['trace with its own and extra keys', { trace: { trace_id: 't', span_name: 's', environment: 'prod' } }],
    ['the deprecated route fallback', { route: 'fallback' }],
    ['the deprecated route sort', { route: 'sort' }],
    ['null route', { route: null }],
    ['vendor extras at the top level', { n: 1, store: false, verbosity: 'low', web_search_options: {} }],
    ['reasoning with every field', { reasoning: { effort: 'high', summary: 'concise', max_tokens: 2048, exclude: false, enabled: true } }],
    ['null reasoning effort and summary', { reasoning: { effort: null, summary: null } }],
    ...['max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none', null].map((effort): [string, Record<string, unknown>] => [
      `reasoning_effort ${String(effort)}`,
      { reasoning_effort: effort },
    ]),
  ];

  it.each(accepted)('accepts %s', (_, fields) => {
    expect(chatBodyMessage(fields)).toBeNull();
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['no messages', { messages: undefined }, 'messages is required'],
    ['empty messages', { messages: [] }, 'messages must have at least 1 item'],
    ['an empty model', { model: '' }, 'model must be at least 1 character long'],
    ['a numeric model', { model: 4 }, 'model must be of type string'],
    ['models as a string', { models: 'openai/gpt-4o' }, 'models must be of type array'],
    ['an empty model in models', { models: [''] }, 'models[0] must be at least 1 character long'],
    ['stream as a string', { stream: 'true' }, 'stream must be of type boolean'],
    [
      'stream_options.include_usage as a string',
      { stream_options: { include_usage: 'yes' } },
      'stream_options.include_usage must be of type boolean',
    ],
    ['temperature above 2', { temperature: 2.1 }, 'temperature must be <= 2'],
    ['temperature below 0', { temperature: -0.1 }, 'temperature must be >= 0'],
    ['temperature as a string', { temperature: '0.7' }, 'temperature must be of type number or null'],
    ['top_p above 1', { top_p: 1.5 }, 'top_p must be <= 1'],
    ['top_p below 0', { top_p: -0.5 }, 'top_p must be >= 0'],
    ['a fractional top_k', { top_k: 1.5 }, 'top_k must be of type integer or null'],
    ['top_a above 1', { top_a: 2 }, 'top_a must be <= 1'],
    ['min_p below 0', { min_p: -0.1 }, 'min_p must be >= 0'],
    ['frequency_penalty below -2', { frequency_penalty: -2.5 }, 'frequency_penalty must be >= -2'],
    ['presence_penalty above 2', { presence_penalty: 3 }, 'presence_penalty must be <= 2'],
    ['repetition_penalty 0', { repetition_penalty: 0 }, 'repetition_penalty must be > 0'],
    ['max_tokens 0', { max_tokens: 0 }, 'max_tokens must be >= 1'],
    ['max_completion_tokens 0', { max_completion_tokens: 0 }, 'max_completion_tokens must be >= 1'],
    ['a fractional max_completion_tokens', { max_completion_tokens: 1.5 }, 'max_completion_tokens must be of type integer or null'],
    ['logprobs as a string', { logprobs: 'yes' }, 'logprobs must be of type boolean or null'],
    ['top_logprobs above 20', { top_logprobs: 21 }, 'top_logprobs must be <= 20'],
    ['top_logprobs below 0', { top_logprobs: -1 }, 'top_logprobs must be >= 0'],
    // formatValidationErrors writes a numeric key like an array index.
    ['a logit_bias value that is not a number', { logit_bias: { '50256': 'ban' } }, 'logit_bias[50256] must be of type number'],
    ['logit_bias as an array', { logit_bias: [1] }, 'logit_bias must be of type object or null'],
    ['a fractional seed', { seed: 1.5 }, 'seed must be of type integer or null'],
    ['5 stop sequences', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop must have at most 4 items'],
    ['a stop sequence that is not a string', { stop: [1] }, 'stop[0] must be of type string'],
    ['stop as a number', { stop: 5 }, 'stop must be of type string or array or null'],
    ['parallel_tool_calls as a string', { parallel_tool_calls: 'yes' }, 'parallel_tool_calls must be of type boolean or null'],
    ['an unknown modality', { modalities: ['video'] }, 'modalities[0] must be one of "text", "image", "audio"'],
    [
      'an image_config value that is a boolean',
      { image_config: { hd: true } },
      'image_config.hd must be of type string or number or array',
    ],
    ['metadata of 17 pairs', { metadata: metadataOf(17) }, 'metadata must have at most 16 entries'],
    ['a metadata value of 513 characters', { metadata: { note: 'x'.repeat(513) } }, 'metadata.note must be at most 512 characters long'],
    ['a metadata value that is not a string', { metadata: { count: 3 } }, 'metadata.count must be of type string'],
    ['user as a number', { user: 5 }, 'user must be of type string'],
    ['session_id of 257 characters', { session_id: 's'.repeat(257) }, 'session_id must be at most 256 characters long'],
    ['prompt_cache_key as a number', { prompt_cache_key: 5 }, 'prompt_cache_key must be of type string or null'],
    ['prompt_cache_options without mode', { prompt_cache_options: {} }, 'prompt_cache_options.mode is required'],
    ['prompt_cache_options with another mode', { prompt_cache_options: { mode: 'auto' } }, 'prompt_cache_options.mode must be "explicit"'],
    ['cache_control without type', { cache_control: { ttl: '5m' } }, 'cache_control.type is required'],
    ['cache_control of another type', { cache_control: { type: 'persistent' } }, 'cache_control.type must be "ephemeral"'],
    [
      'cache_control with an unknown ttl',
      { cache_control: { type: 'ephemeral', ttl: '2h' } },
      'cache_control.ttl must be one of "5m", "1h"',
    ],
    ['prediction without content', { prediction: { type: 'content' } }, 'prediction.content is required'],
    ['prediction of another type', { prediction: { type: 'diff', content: 'x' } }, 'prediction.type must be "content"'],
    [
      'an unknown service_tier',
      { service_tier: 'turbo' },
      'service_tier must be one of "auto", "default", "fast", "flex", "priority", "scale", null',
    ],
    ['debug.echo_upstream_body as a string', { debug: { echo_upstream_body: 'yes' } }, 'debug.echo_upstream_body must be of type boolean'],
    ['trace as a string', { trace: 'abc' }, 'trace must be of type object'],
    ['trace.trace_id as a number', { trace: { trace_id: 5 } }, 'trace.trace_id must be of type string'],
    ['an unknown route', { route: 'random' }, 'route must be one of "fallback", "sort", null'],
    ['reasoning as a string', { reasoning: 'high' }, 'reasoning must be of type object'],
    ['an unknown reasoning.effort', { reasoning: { effort: 'extreme' } }, `reasoning.effort must be one of ${EFFORTS}`],
    [
      'an unknown reasoning.summary',
      { reasoning: { summary: 'brief' } },
      'reasoning.summary must be one of "auto", "concise", "detailed", null',
    ],
    ['reasoning.max_tokens 0', { reasoning: { max_tokens: 0 } }, 'reasoning.max_tokens must be >= 1'],
    ['reasoning.exclude as a string', { reasoning: { exclude: 'no' } }, 'reasoning.exclude must be of type boolean'],
    ['reasoning.enabled as a number', { reasoning: { enabled: 1 } }, 'reasoning.enabled must be of type boolean'],
    ['an unknown reasoning_effort', { reasoning_effort: 'extreme' }, `reasoning_effort must be one of ${EFFORTS}`],
  ];

  it.each(refused)('refuses %s', (_, fields, message) => {
    expect(chatBodyMessage(fields)).toBe(message);
  });

  it('defaults stream to false', () => {
    const body: Record<string, unknown> = { messages: [{ role: 'user', content: 'Hello' }] };
    expect(validationMessage(ChatRequestBody, body)).toBeNull();
    expect(body.stream).toBe(false);
  });

  it('refuses a body that is not an object', () => {
    expect(validationMessage(ChatRequestBody, [])).toBe('Request body must be of type object');
  });
});

describe('ChatRequestHeaders', () => {
  it('accepts the known headers beside any others', () => {
    const headers = { 'x-session-id': 's'.repeat(256), 'x-service-metadata': 'enabled', authorization: 'Bearer k' };
    expect(validationMessage(ChatRequestHeaders, headers, 'headers')).toBeNull();
  });

  it.each([
    [{ 'x-session-id': 's'.repeat(257) }, 'header x-session-id must be at most 256 characters long'],
    [{ 'x-service-metadata': 'on' }, 'header x-service-metadata must be one of "disabled", "enabled"'],
    [{ 'x-service-experimental-metadata': 'yes' }, 'header x-service-experimental-metadata must be one of "disabled", "enabled"'],
  ])('refuses %j', (headers, message) => {
    expect(validationMessage(ChatRequestHeaders, headers, 'headers')).toBe(message);
  });
});
