import { describe, expect, it } from 'vitest';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';

describe('mapOpenAIFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['function_call', 'tool_calls'],
    ['model_length', 'length'],
    ['error', 'error'],
    ['insufficient_system_resource', 'error'],
  ] as const)('maps %s to %s', (native, canonical) => {
    expect(mapOpenAIFinishReason(native)).toBe(canonical);
  });

  it('maps an unknown reason to stop', () => {
    expect(mapOpenAIFinishReason('eos_token')).toBe('stop');
  });

  it('keeps "not finished" as null', () => {
    expect(mapOpenAIFinishReason(null)).toBeNull();
    expect(mapOpenAIFinishReason(undefined)).toBeNull();
  });
});
