import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../server.js';
import { fixtureMp4 } from './fixture-mp4.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const KEY = { 'x-goog-api-key': 'sim-key' };
const PNG = { bytesBase64Encoded: 'iVBORw0KGgo=', mimeType: 'image/png' };

async function create(model: string, body: unknown = { instances: [{ prompt: 'a cat' }] }, headers: Record<string, string> = KEY) {
  const response = await fetch(`${sim.url}/v1beta/models/${model}:predictLongRunning`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}
const get = async (path: string, headers: Record<string, string> = KEY) => {
  const response = await fetch(`${sim.url}/v1beta/${path}`, { headers, redirect: 'manual' });
  return response;
};
async function doneOperation(name: string) {
  for (;;) {
    const op = (await (await get(name)).json()) as any;
    if (op.done) return op;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the simulator’s Veo (Gemini API long-running operations)', () => {
  it('starts an operation, reports only its name while rendering, then the video file', async () => {
    const rendering = await create('veo-3.1-generate-preview@render_ms=60000');
    expect(rendering).toEqual({
      status: 200,
      body: { name: expect.stringMatching(/^models\/veo-3\.1-generate-preview\/operations\/\w+$/) },
    });
    expect(await (await get(rendering.body.name)).json()).toEqual({ name: rendering.body.name });
    const created = await create('veo-3.1-generate-preview@render_ms=0');
    const done = await doneOperation(created.body.name);
    expect(done).toEqual({
      name: created.body.name,
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
        generateVideoResponse: {
          generatedSamples: [{ video: { uri: expect.stringMatching(/\/v1beta\/files\/\w+:download\?alt=media$/) } }],
        },
      },
    });
  });

  it('downloads the file with the key through a redirect to signed storage, which serves the MP4', async () => {
    const created = await create('veo-3.1-generate-preview@render_ms=0', { instances: [{ prompt: 'p' }], parameters: { sampleCount: 2 } });
    const done = await doneOperation(created.body.name);
    const uris = done.response.generateVideoResponse.generatedSamples.map((s: any) => s.video.uri as string);
    expect(uris).toHaveLength(2);
    expect((await fetch(uris[0], { redirect: 'manual' })).status).toBe(403);
    const redirect = await fetch(uris[1], { headers: KEY, redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const storage = redirect.headers.get('location')!;
    expect(storage).toMatch(/\/storage\/veo\/\w+\.mp4\?token=\w+$/);
    const video = await fetch(storage);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await video.arrayBuffer())).toEqual(fixtureMp4());
    expect((await fetch(storage.replace(/token=\w+/, 'token=forged'))).status).toBe(403);
  });

  it('ends failed, filtered or cancelled as the knobs and operations.cancel say', async () => {
    const failed = await doneOperation((await create('veo-3.1-generate-preview@render_ms=0,fail=1')).body.name);
    expect(failed.error).toEqual({ code: 13, message: 'The simulated render failed' });
    const filtered = await doneOperation((await create('veo-3.1-generate-preview@render_ms=0,rai=1')).body.name);
    expect(filtered.response.generateVideoResponse).toEqual({
      raiMediaFilteredCount: 1,
      raiMediaFilteredReasons: ['The simulated video was filtered by Responsible AI checks.'],
    });
    const slow = await create('veo-3.1-generate-preview@render_ms=60000');
    const cancel = await fetch(`${sim.url}/v1beta/${slow.body.name}:cancel`, { method: 'POST', headers: KEY });
    expect(cancel.status).toBe(200);
    expect(await doneOperation(slow.body.name)).toMatchObject({ done: true, error: { code: 1 } });
  });

  it('answers in Google’s error shape: no key, bad request, status knob, unknown operation, download knob', async () => {
    expect(await create('veo-3.1-generate-preview', undefined, {})).toMatchObject({
      status: 403,
      body: { error: { status: 'PERMISSION_DENIED' } },
    });
    const refused = await create('veo-3.1-generate-preview', { instances: [{ prompt: 'p' }], parameters: { aspectRatio: '1:1' } });
    expect(refused).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'aspectRatio "1:1" is not supported; use one of 16:9, 9:16', status: 'INVALID_ARGUMENT' } },
    });
    expect(await create('veo-3.1-generate-preview@status=429')).toMatchObject({
      status: 429,
      body: { error: { status: 'RESOURCE_EXHAUSTED' } },
    });
    expect((await get('models/veo-3.1-generate-preview/operations/nope')).status).toBe(404);
    const broken = await doneOperation((await create('veo-3.1-generate-preview@render_ms=0,content_status=500')).body.name);
    expect((await fetch(broken.response.generateVideoResponse.generatedSamples[0].video.uri, { headers: KEY })).status).toBe(500);
  });

  it('takes images as Veo does: base64 with a PNG or JPEG type, not Gemini’s inlineData', async () => {
    const image = await create('veo-3.1-generate-preview', { instances: [{ prompt: 'p', image: PNG, lastFrame: PNG }] });
    expect(image.status).toBe(200);
    const references = await create('veo-3.1-generate-preview', {
      instances: [{ prompt: 'p', referenceImages: [{ image: PNG, referenceType: 'asset' }] }],
    });
    expect(references.status).toBe(200);
    const inline = await create('veo-3.1-generate-preview', {
      instances: [{ prompt: 'p', image: { inlineData: { mimeType: 'image/png', data: 'AA==' } } }],
    });
    expect(inline).toMatchObject({ status: 400, body: { error: { message: "`inlineData` isn't supported by this model." } } });
    const lastOnly = await create('veo-3.1-generate-preview', { instances: [{ prompt: 'p', lastFrame: PNG }] });
    expect(lastOnly.body.error.message).toBe('instances[0].lastFrame needs instances[0].image');
    const long1080 = await create('veo-3.1-generate-preview', {
      instances: [{ prompt: 'p' }],
      parameters: { resolution: '1080p', durationSeconds: 4 },
    });
    expect(long1080.body.error.message).toBe('1080p videos are 8 seconds long');
  });
});
