import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from '../../src/providers/shared/upstream-server.testing.js';
import { fixtureMp4 } from '../../src/sim/video/fixture-mp4.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { jobEnded } from '../support/video-jobs.js';
import { videoSimCatalog } from '../support/video-sim-catalog.js';

/**
 * The content route relays the upstream's bytes as they come: the first
 * half of the video reaches the client while the upstream still holds the
 * second, which a buffering relay could not do.
 */
describe.each(testEngines)('video content streaming on $name', (engine) => {
  const mp4 = fixtureMp4();
  const half = Math.floor(mp4.length / 2);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let upstream: TestUpstream;
  let gw: RunningGateway;

  beforeAll(async () => {
    // OpenAI's Videos API, with a video that is done at once and whose download stalls halfway.
    const video = {
      id: 'video_1',
      object: 'video',
      model: 'sora-2',
      status: 'completed',
      progress: 100,
      seconds: '4',
      size: '720x1280',
      error: null,
    };
    upstream = await startTestUpstream(async (request, response) => {
      if (request.path.endsWith('/content?variant=video')) {
        response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(mp4.length) });
        response.write(mp4.subarray(0, half));
        await released;
        return void response.end(mp4.subarray(half));
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(video));
    });
    gw = await startGateway(engine, {
      catalog: videoSimCatalog(upstream.origin, [{ id: 'test/video', upstream: 'sora-2' }]),
      videos: { tickMs: 20, intervalMs: 20 },
    });
  });
  afterAll(async () => {
    release();
    await gw.close();
    await upstream.close();
  });

  it('sends the first bytes before the upstream sent the last, with the upstream’s length', async () => {
    const accepted = await call(gw, 'POST', '/videos', { key: gw.managementKey, body: { model: 'test/video', prompt: 'x' } });
    expect((await jobEnded(gw, accepted.body.id, gw.managementKey)).body.status).toBe('completed');
    const response = await fetch(`${gw.baseUrl}/videos/${accepted.body.id}/content`, {
      headers: { authorization: `Bearer ${gw.managementKey}` },
    });
    expect(response.headers.get('content-length')).toBe(String(mp4.length));
    const reader = response.body!.getReader();
    const received: Buffer[] = [];
    let length = 0;
    while (length < half) {
      const { value } = await reader.read();
      received.push(Buffer.from(value!));
      length += value!.length;
    }
    expect(Buffer.concat(received)).toEqual(mp4.subarray(0, half));
    release();
    for (let next = await reader.read(); !next.done; next = await reader.read()) received.push(Buffer.from(next.value));
    expect(Buffer.concat(received)).toEqual(mp4);
  });
});
