import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../server.js';
import { fixtureMp4 } from './fixture-mp4.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const AUTH = { authorization: 'Bearer sim-key' };
async function create(body: unknown, headers: Record<string, string> = AUTH) {
  const response = await fetch(`${sim.url}/v1/videos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}
const retrieve = async (id: string) => (await (await fetch(`${sim.url}/v1/videos/${id}`, { headers: AUTH })).json()) as any;
async function ended(id: string) {
  for (;;) {
    const video = await retrieve(id);
    if (video.status === 'completed' || video.status === 'failed') return video;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the simulator’s OpenAI Videos API', () => {
  it('queues a video, renders it in render_ms, and serves its content as MP4', async () => {
    const rendering = await create({ model: 'sora-2@render_ms=60000', prompt: 'a cat', seconds: '8', size: '1280x720' });
    expect(rendering.body).toMatchObject({ object: 'video', status: 'queued', seconds: '8', size: '1280x720', progress: 0 });
    expect((await fetch(`${sim.url}/v1/videos/${rendering.body.id}/content`, { headers: AUTH })).status).toBe(404);
    const created = await create({ model: 'sora-2@render_ms=0', prompt: 'a cat' });
    expect(await ended(created.body.id)).toMatchObject({ status: 'completed', progress: 100, error: null });
    const content = await fetch(`${sim.url}/v1/videos/${created.body.id}/content?variant=video`, { headers: AUTH });
    expect(content.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await content.arrayBuffer())).toEqual(fixtureMp4());
  });

  it('takes the first frame as input_reference and refuses values OpenAI does not take', async () => {
    expect((await create({ model: 'sora-2', prompt: 'p', input_reference: { image_url: 'data:image/png;base64,AA==' } })).status).toBe(200);
    expect((await create({ model: 'sora-2', prompt: 'p', input_reference: 'cat.png' })).body.error).toMatchObject({
      param: 'input_reference',
      code: 'invalid_type',
    });
    expect((await create({ model: 'sora-2', prompt: 'p', seconds: '5' })).body.error).toMatchObject({
      param: 'seconds',
      code: 'invalid_value',
    });
    expect((await create({ model: 'sora-2', prompt: 'p', size: '640x480' })).body.error).toMatchObject({
      param: 'size',
      code: 'invalid_value',
    });
  });

  it('fails, refuses and breaks downloads as the knobs say', async () => {
    const failing = await create({ model: 'sora-2@render_ms=0,fail=1', prompt: 'p' });
    expect(await ended(failing.body.id)).toMatchObject({
      status: 'failed',
      error: { code: 'video_generation_failed', message: 'The simulated render failed' },
    });
    expect(await create({ model: 'sora-2@status=429', prompt: 'p' })).toMatchObject({
      status: 429,
      body: { error: { code: 'rate_limit_exceeded' } },
    });
    const broken = await create({ model: 'sora-2@render_ms=0,content_status=503', prompt: 'p' });
    expect((await fetch(`${sim.url}/v1/videos/${broken.body.id}/content`, { headers: AUTH })).status).toBe(503);
    expect((await create({ model: 'sora-2', prompt: 'p' }, {})).status).toBe(401);
  });

  it('shows a video only to the key that made it, and refuses a revoked key as OpenAI does a wrong one', async () => {
    const created = await create({ model: 'sora-2@render_ms=0', prompt: 'p' }, { authorization: 'Bearer sk-team-key' });
    const asOther = await fetch(`${sim.url}/v1/videos/${created.body.id}`, { headers: AUTH });
    expect(asOther.status).toBe(404);
    await asOther.arrayBuffer();
    const asOwner = await fetch(`${sim.url}/v1/videos/${created.body.id}`, { headers: { authorization: 'Bearer sk-team-key' } });
    expect(((await asOwner.json()) as { id: string }).id).toBe(created.body.id);
    expect((await fetch(`${sim.url}/v1/videos/${created.body.id}/content`, { headers: AUTH })).status).toBe(404);
    expect(await create({ model: 'sora-2', prompt: 'p' }, { authorization: 'Bearer sk-sim-revoked-1' })).toMatchObject({
      status: 401,
      body: { error: { code: 'invalid_api_key' } },
    });
  });
});
