import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { closeAllPools } from '../shared/connection-pools.js';
import { type ReceivedRequest, startTestUpstream, type TestUpstream } from '../shared/upstream-server.testing.js';
import { geminiVideosAdapter as adapter } from './gemini-videos-adapter.js';

const upstreams: TestUpstream[] = [];
async function upstream(handle: (request: ReceivedRequest, response: ServerResponse) => void) {
  const started = await startTestUpstream(handle);
  upstreams.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((started) => started.close()));
});
afterAll(() => closeAllPools());

const NAME = 'models/veo-3.1-generate-preview/operations/op1';
const context = { signal: new AbortController().signal };
const target = (origin: string): UpstreamTarget => ({
  providerId: 'google',
  kind: 'gemini',
  baseUrl: `${origin}/v1beta`,
  apiKey: 'g-key',
  upstreamModel: 'veo-3.1-generate-preview',
  timeoutMs: 2_000,
});
const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};
const doneWith = (uris: string[]) => ({
  name: NAME,
  done: true,
  response: { generateVideoResponse: { generatedSamples: uris.map((uri) => ({ video: { uri } })) } },
});

describe('geminiVideosAdapter', () => {
  it('starts a long-running operation with the key in x-goog-api-key, then reads it by name', async () => {
    const google = await upstream((request, response) =>
      request.method === 'POST' ? json(response, 200, { name: NAME }) : json(response, 200, { name: NAME, done: false }),
    );
    const created = await adapter.create(
      { model: 'google/veo-3.1', prompt: 'a cat', duration: 8, passthrough: { negativePrompt: 'dogs' } },
      target(google.origin),
      context,
    );
    expect(created).toEqual({ status: 'in_progress', upstreamId: NAME });
    expect(await adapter.retrieve(NAME, target(google.origin), context)).toEqual({ status: 'in_progress', upstreamId: NAME });
    expect(google.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1beta/models/veo-3.1-generate-preview:predictLongRunning',
      `GET /v1beta/${NAME}`,
    ]);
    expect(google.requests[0]?.headers['x-goog-api-key']).toBe('g-key');
    expect(google.requests[0]?.body).toEqual({
      instances: [{ prompt: 'a cat' }],
      parameters: { negativePrompt: 'dogs', durationSeconds: 8 },
    });
  });

  it('rejects Google’s errors as status errors with its message and status name', async () => {
    const google = await upstream((_, response) =>
      json(response, 400, { error: { code: 400, message: 'Unsupported aspect ratio', status: 'INVALID_ARGUMENT' } }),
    );
    const error = await adapter
      .create({ model: 'm', prompt: 'p', passthrough: {} }, target(google.origin), context)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({
      failure: 'status',
      message: 'upstream answered 400: Unsupported aspect ratio',
      details: { status: 400, providerCode: 'INVALID_ARGUMENT' },
    });
  });

  it('downloads a video with the key, following the redirect to storage without it', async () => {
    const mp4 = Buffer.from('....ftypisom-and-the-rest');
    const storage = await upstream((_, response) => {
      response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(mp4.length) });
      response.end(mp4);
    });
    const google = await upstream((request, response) => {
      if (request.path === `/v1beta/${NAME}`)
        return json(response, 200, doneWith(['/ignored', `${google.origin}/v1beta/files/f1:download?alt=media`]));
      response.writeHead(302, { location: `${storage.origin}/signed/f1.mp4?sig=abc` });
      response.end();
    });
    const content = await adapter.content(NAME, 1, target(google.origin), context);
    expect(content).toMatchObject({ contentType: 'video/mp4', contentLength: mp4.length });
    const chunks: Buffer[] = [];
    for await (const chunk of content.body) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks)).toEqual(mp4);
    expect(google.requests.map((r) => r.path)).toEqual([`/v1beta/${NAME}`, '/v1beta/files/f1:download?alt=media']);
    expect(google.requests[1]?.headers['x-goog-api-key']).toBe('g-key');
    expect(storage.requests.map((r) => r.path)).toEqual(['/signed/f1.mp4?sig=abc']);
    expect(storage.requests[0]?.headers['x-goog-api-key']).toBeUndefined();
  });

  it('never sends the key to another origin an operation names, and has no video past the last index', async () => {
    const elsewhere = await upstream((_, response) =>
      json(response, 403, { error: { code: 403, message: 'no key', status: 'PERMISSION_DENIED' } }),
    );
    const google = await upstream((_, response) =>
      json(response, 200, doneWith([`${elsewhere.origin}/v1beta/files/f1:download?alt=media`])),
    );
    await expect(adapter.content(NAME, 0, target(google.origin), context)).rejects.toMatchObject({
      failure: 'status',
      details: { status: 403 },
    });
    expect(elsewhere.requests[0]?.headers['x-goog-api-key']).toBeUndefined();
    await expect(adapter.content(NAME, 1, target(google.origin), context)).rejects.toMatchObject({
      message: 'no video at index 1',
      details: { status: 404 },
    });
  });

  it('serves a video the operation carries inline', async () => {
    const google = await upstream((_, response) =>
      json(response, 200, {
        name: NAME,
        done: true,
        response: { generateVideoResponse: { generatedSamples: [{ video: { encodedVideo: 'AAECAw==', encoding: 'video/mp4' } }] } },
      }),
    );
    const content = await adapter.content(NAME, 0, target(google.origin), context);
    expect(content).toMatchObject({ contentType: 'video/mp4', contentLength: 4 });
    const chunks: Buffer[] = [];
    for await (const chunk of content.body) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([0, 1, 2, 3]));
  });
});
