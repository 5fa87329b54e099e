import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { UpstreamVideoContent } from '../../protocol/adapters.js';
import type { SpeechRequest } from '../../protocol/speech.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { closeAllPools } from '../shared/connection-pools.js';
import { startTestUpstream, type TestUpstream } from '../shared/upstream-server.testing.js';
import { openAISpeechAdapter as adapter } from './openai-speech-adapter.js';

const upstreams: TestUpstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((started) => started.close()));
});
afterAll(closeAllPools);

const request: SpeechRequest = { model: 'openai/gpt-4o-mini-tts', input: 'Hello.', voice: 'alloy', response_format: 'mp3' };
const audio = Buffer.from([0xff, 0xfb, 0x90, 0x00, 1, 2, 3]);

/** Asks for events of a server that answers `body` with this Content-Type (none when undefined), whatever was asked. */
async function speakEventsOf(contentType: string | undefined, body: Buffer | string) {
  const server = await startTestUpstream((_, response) => {
    response.writeHead(200, contentType === undefined ? {} : { 'content-type': contentType });
    response.end(body);
  });
  upstreams.push(server);
  const target: UpstreamTarget = {
    providerId: 'local',
    kind: 'openai',
    baseUrl: `${server.origin}/v1`,
    apiKey: 'sk-test',
    headers: {},
    upstreamModel: 'kokoro',
    timeoutMs: 2_000,
  };
  const answer = await adapter.speakEvents(request, target, { signal: new AbortController().signal });
  return { answer, asked: server.requests[0]!.body };
}

const bytesOf = async ({ body }: UpstreamVideoContent) => {
  const pieces: Buffer[] = [];
  for await (const piece of body) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces);
};

describe('openAISpeechAdapter.speakEvents, of a server that ignores stream_format', () => {
  it.each(['audio/mpeg', 'audio/wav; charset=binary', 'Audio/PCM', 'application/octet-stream'])(
    'gives the raw audio it answers as %s, as speak does',
    async (type) => {
      const { answer, asked } = await speakEventsOf(type, audio);
      expect(asked).toMatchObject({ stream_format: 'sse' });
      expect(answer).toMatchObject({ contentType: type });
      expect(await bytesOf(answer as UpstreamVideoContent)).toEqual(audio);
    },
  );

  it.each([
    ['JSON', 'application/json', '{"ok":true}'],
    ['HTML', 'text/html', '<html></html>'],
    ['no type', undefined, 'bytes'],
  ])('still refuses %s as not the protocol', async (_, type, body) => {
    const refused = speakEventsOf(type, body);
    await expect(refused).rejects.toBeInstanceOf(UpstreamError);
    await expect(refused).rejects.toThrow(`upstream answered a stream request with ${type ?? 'no content type'}`);
  });
});
