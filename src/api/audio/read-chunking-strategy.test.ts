import { describe, expect, it } from 'vitest';
import { readChunkingStrategy } from './read-chunking-strategy.js';

const fields = (entries: Record<string, string | string[]>) => new Map(Object.entries(entries).map(([k, v]) => [k, [v].flat()]));

describe('readChunkingStrategy', () => {
  it('reads auto, the server VAD as OpenAI’s SDK writes it in a form, and as a JSON object', () => {
    expect(readChunkingStrategy(fields({}))).toBeUndefined();
    expect(readChunkingStrategy(fields({ chunking_strategy: 'auto' }))).toBe('auto');
    expect(readChunkingStrategy(fields({ 'chunking_strategy[type]': 'server_vad', 'chunking_strategy[threshold]': '0.4' }))).toEqual({
      type: 'server_vad',
      threshold: 0.4,
    });
    expect(readChunkingStrategy(fields({ chunking_strategy: '{"type":"server_vad","silence_duration_ms":500}' }))).toEqual({
      type: 'server_vad',
      silence_duration_ms: 500,
    });
  });

  it.each([
    [{ chunking_strategy: 'manual' }, 'chunking_strategy must be "auto" or a server_vad object'],
    [{ 'chunking_strategy[type]': 'client_vad' }, 'chunking_strategy[type] must be server_vad'],
    [
      { 'chunking_strategy[type]': 'server_vad', 'chunking_strategy[threshold]': '2' },
      'chunking_strategy[threshold] must be a number from 0 to 1',
    ],
    [{ 'chunking_strategy[type]': 'server_vad', 'chunking_strategy[loud]': '1' }, 'chunking_strategy[loud] is not a setting of server_vad'],
    [{ chunking_strategy: 'auto', 'chunking_strategy[type]': 'server_vad' }, 'either whole or as chunking_strategy[name] fields'],
  ])('refuses %o with a 400 naming the field', (entries, message) => {
    expect(() => readChunkingStrategy(fields(entries))).toThrow(
      expect.objectContaining({ statusCode: 400, message: expect.stringContaining(message) }),
    );
  });
});
