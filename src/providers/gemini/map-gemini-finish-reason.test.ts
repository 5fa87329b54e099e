import { describe, expect, it } from 'vitest';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

describe('mapGeminiFinishReason', () => {
  it('maps STOP to stop, or to tool_calls when the turn called functions', () => {
    expect(mapGeminiFinishReason('STOP', false)).toBe('stop');
    expect(mapGeminiFinishReason('STOP', true)).toBe('tool_calls');
  });

  it('maps MAX_TOKENS to length, even after a function call', () => {
    expect(mapGeminiFinishReason('MAX_TOKENS', true)).toBe('length');
  });

  it.each([
    'SAFETY',
    'RECITATION',
    'BLOCKLIST',
    'PROHIBITED_CONTENT',
    'SPII',
    'IMAGE_SAFETY',
    'IMAGE_PROHIBITED_CONTENT',
    'IMAGE_RECITATION',
    'LANGUAGE',
  ])('maps the block %s to content_filter', (reason) => expect(mapGeminiFinishReason(reason, false)).toBe('content_filter'));

  it.each(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'MISSING_THOUGHT_SIGNATURE'])(
    'maps the failed call %s to error',
    (reason) => expect(mapGeminiFinishReason(reason, false)).toBe('error'),
  );

  it('maps unknown and unspecified values like STOP, and no value to null', () => {
    expect(mapGeminiFinishReason('OTHER', false)).toBe('stop');
    expect(mapGeminiFinishReason('FINISH_REASON_UNSPECIFIED', true)).toBe('tool_calls');
    expect(mapGeminiFinishReason(undefined, true)).toBeNull();
  });
});
