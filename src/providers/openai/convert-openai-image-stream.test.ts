import { describe, expect, it } from 'vitest';
import { convertOpenAIImageStreamEvent, readOpenAIImageStream } from './convert-openai-image-stream.js';

const event = (data: unknown) => ({ data: typeof data === 'string' ? data : JSON.stringify(data), event: undefined, id: undefined });
async function* events(...items: unknown[]) {
  yield* items.map(event);
}
const collect = async <T>(iterable: AsyncIterable<T>) => {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
};

describe('convertOpenAIImageStreamEvent', () => {
  it('reads a partial image of a generation or an edit', () => {
    const partial = { b64_json: 'iVBO', partial_image_index: 1, output_format: 'png' };
    expect(convertOpenAIImageStreamEvent(JSON.stringify({ type: 'image_generation.partial_image', ...partial }))).toEqual({
      type: 'partial',
      b64_json: 'iVBO',
      partialImageIndex: 1,
    });
    expect(convertOpenAIImageStreamEvent(JSON.stringify({ type: 'image_edit.partial_image', ...partial }))).toMatchObject({
      type: 'partial',
    });
  });

  it('reads a completed image with its time, format and token usage', () => {
    const completed = {
      type: 'image_generation.completed',
      b64_json: 'iVBO',
      created_at: 1700000000,
      output_format: 'png',
      usage: { input_tokens: 5, input_tokens_details: { image_tokens: 0, text_tokens: 5 }, output_tokens: 272, total_tokens: 277 },
    };
    expect(convertOpenAIImageStreamEvent(JSON.stringify(completed))).toEqual({
      type: 'completed',
      b64_json: 'iVBO',
      created: 1700000000,
      outputFormat: 'png',
      usage: { input_tokens: 5, input_image_tokens: 0, output_tokens: 272 },
    });
  });

  it('skips events of other types, and throws on an error event or an image without bytes', () => {
    expect(convertOpenAIImageStreamEvent('{"type":"image_generation.keepalive"}')).toBeUndefined();
    expect(() => convertOpenAIImageStreamEvent('{"type":"error","error":{"message":"boom","type":"server_error"}}')).toThrow('boom');
    expect(() => convertOpenAIImageStreamEvent('{"type":"image_generation.completed"}')).toThrow(
      expect.objectContaining({ failure: 'malformed', message: 'upstream sent image_generation.completed without b64_json' }),
    );
    expect(() => convertOpenAIImageStreamEvent('not json')).toThrow(expect.objectContaining({ failure: 'malformed' }));
  });
});

describe('readOpenAIImageStream', () => {
  it('yields the events in order and ignores a [DONE]', async () => {
    const stream = readOpenAIImageStream(
      events(
        { type: 'image_generation.partial_image', b64_json: 'a', partial_image_index: 0 },
        { type: 'image_generation.completed', b64_json: 'b' },
        '[DONE]',
      ),
    );
    expect((await collect(stream)).map((e) => e.type)).toEqual(['partial', 'completed']);
  });

  it('calls a stream that ends before an image completed cut off', async () => {
    const stream = readOpenAIImageStream(events({ type: 'image_generation.partial_image', b64_json: 'a', partial_image_index: 0 }));
    await expect(collect(stream)).rejects.toMatchObject({ failure: 'connection', message: 'stream ended before an image completed' });
  });
});
