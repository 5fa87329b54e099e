import { describe, expect, it } from 'vitest';
import { fromOpenAIVideo } from './convert-openai-video.js';
import { toOpenAIVideoRequest } from './convert-to-openai-video-request.js';

describe('OpenAI video objects', () => {
  it('reads each status', () => {
    expect(fromOpenAIVideo({ id: 'v', status: 'queued' })).toEqual({ status: 'queued', upstreamId: 'v' });
    expect(fromOpenAIVideo({ id: 'v', status: 'completed', seconds: '8' })).toEqual({
      status: 'completed',
      upstreamId: 'v',
      seconds: 8,
      outputs: 1,
    });
    expect(fromOpenAIVideo({ id: 'v', status: 'failed', error: { message: 'x' } })).toEqual({
      status: 'failed',
      upstreamId: 'v',
      message: 'x',
    });
    expect(fromOpenAIVideo({ id: 'v', status: 'weird' })).toBeUndefined();
    expect(fromOpenAIVideo('nope')).toBeUndefined();
  });

  it('writes seconds as a string and size from resolution and aspect ratio', () => {
    const request = { model: 'm', prompt: 'p', duration: 8, resolution: '720p', aspect_ratio: '9:16', passthrough: {} };
    expect(toOpenAIVideoRequest(request, 'sora-2')).toEqual({ model: 'sora-2', prompt: 'p', seconds: '8', size: '720x1280' });
    expect(toOpenAIVideoRequest({ ...request, size: '1280x720', aspect_ratio: undefined }, 'sora-2')).toMatchObject({ size: '1280x720' });
  });

  it('sends the first frame as input_reference, by URL or data URL', () => {
    const frame = (url: string) => ({ type: 'image_url' as const, image_url: { url }, frame_type: 'first_frame' as const });
    const body = toOpenAIVideoRequest(
      { model: 'm', prompt: 'p', frame_images: [frame('data:image/png;base64,AA==')], passthrough: {} },
      'sora-2',
    );
    expect(body).toEqual({ model: 'sora-2', prompt: 'p', input_reference: { image_url: 'data:image/png;base64,AA==' } });
  });
});
