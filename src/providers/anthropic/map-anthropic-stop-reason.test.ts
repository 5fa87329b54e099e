import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['a_reason_added_later', 'stop'],
  ])('maps %s to %s', (reason, expected) => {
    expect(mapAnthropicStopReason(reason)).toBe(expected);
  });

  it('has no finish reason while the stop reason is null', () => {
    expect(mapAnthropicStopReason(null)).toBeNull();
    expect(mapAnthropicStopReason(undefined)).toBeNull();
  });
});
