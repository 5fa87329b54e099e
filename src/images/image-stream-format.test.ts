import { describe, expect, it } from 'vitest';
import { Errors } from '../http/errors.js';
import { openAIImageStream, REFERENCE_IMAGE_STREAM } from './image-stream-format.js';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
const tally = { inputTokens: 5, outputTokens: 272, cost: 0.04, created: 1700000000 };
const completed = { type: 'completed' as const, b64_json: png, outputFormat: 'png', usage: { input_tokens: 5, output_tokens: 272 } };
const failure = Errors.upstreamFailed({ provider_name: 'openai' }, 'openai', 'mid-stream: boom');

describe('REFERENCE_IMAGE_STREAM', () => {
  it('writes data-only events in the reference’s shapes, the run’s usage and cost on the completed one', () => {
    expect(REFERENCE_IMAGE_STREAM.partial({ type: 'partial', b64_json: png, partialImageIndex: 1 }, tally)).toEqual({
      data: { type: 'image_generation.partial_image', b64_json: png, partial_image_index: 1 },
    });
    expect(REFERENCE_IMAGE_STREAM.completed(completed, tally)).toEqual({
      data: {
        type: 'image_generation.completed',
        b64_json: png,
        created: 1700000000,
        media_type: 'image/png',
        usage: { prompt_tokens: 5, completion_tokens: 272, total_tokens: 277, cost: 0.04 },
      },
    });
    expect(REFERENCE_IMAGE_STREAM.done).toBe(true);
  });

  it('tells a failure as ImageGenStreamErrorEvent, naming the gateway’s error and the provider as its source', () => {
    expect(REFERENCE_IMAGE_STREAM.error(failure).data).toMatchObject({
      type: 'error',
      error: { code: 'GW_ERR_UPSTREAM_FAILED', message: failure.message, param: null, type: 'provider_error' },
    });
    expect(REFERENCE_IMAGE_STREAM.error(Errors.shuttingDown()).data).toMatchObject({ error: { type: 'gateway_error' } });
  });
});

describe('openAIImageStream', () => {
  it('names each event by its type, with OpenAI’s fields and the cost in the usage', () => {
    const edits = openAIImageStream('image_edit');
    expect(edits.partial({ type: 'partial', b64_json: png, partialImageIndex: 0 }, tally)).toEqual({
      name: 'image_edit.partial_image',
      data: { type: 'image_edit.partial_image', b64_json: png, created_at: 1700000000, partial_image_index: 0 },
    });
    expect(openAIImageStream('image_generation').completed({ ...completed, created: 1700000005 }, tally)).toEqual({
      name: 'image_generation.completed',
      data: {
        type: 'image_generation.completed',
        b64_json: png,
        created_at: 1700000005,
        output_format: 'png',
        usage: { input_tokens: 5, output_tokens: 272, total_tokens: 277, cost: 0.04 },
      },
    });
    expect(edits.error(failure).name).toBe('error');
    expect(edits.done).toBe(false);
  });
});
