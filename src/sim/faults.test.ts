import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from './server.js';
import { postChat, readJson, readSimStats, readSseData, readSseUntilFailure } from './test-support.testing.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

const hello = { model: 'sim-model', messages: [{ role: 'user', content: 'Hello there' }] };
const streamed = { ...hello, stream: true };
const elapsedSince = (start: number) => performance.now() - start;
/** Timers may fire a hair early relative to performance.now(). */
const SLACK_MS = 3;

describe('status knob', () => {
  it('answers 429 with an OpenAI rate-limit body and Retry-After (headers)', async () => {
    const response = await postChat(sim.url, streamed, { 'x-sim-status': '429', 'x-sim-retry-after': '7' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await readJson(response)).toEqual({
      error: {
        message: expect.stringContaining('Rate limit reached for sim-model'),
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
  });

  it.each([
    [500, 'server_error', null],
    [502, 'server_error', null],
    [503, 'server_error', null],
    [400, 'invalid_request_error', null],
    [401, 'invalid_request_error', 'invalid_api_key'],
    [404, 'invalid_request_error', 'model_not_found'],
    [408, 'invalid_request_error', null],
  ])('answers %i with a provider-style body (model-name form)', async (status, type, code) => {
    const response = await postChat(sim.url, { ...hello, model: `sim-model@status=${status}` });
    expect(response.status).toBe(status);
    expect(response.headers.get('retry-after')).toBeNull();
    expect((await readJson(response)).error).toEqual({ message: expect.any(String), type, param: null, code });
  });

  it('sends Retry-After from the model-name form too', async () => {
    const response = await postChat(sim.url, { ...hello, model: 'sim-model@status=503,retry_after=1' });
    expect([response.status, response.headers.get('retry-after')]).toEqual([503, '1']);
  });

  it('answers 400 for an invalid knob', async () => {
    const response = await postChat(sim.url, { ...hello, model: 'sim-model@statuz=503' });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error).toMatchObject({ type: 'invalid_request_error', param: 'model', code: 'invalid_sim_knob' });
  });
});

describe('timing knobs', () => {
  it('delays the response headers by latency', async () => {
    const start = performance.now();
    const response = await postChat(sim.url, hello, { 'x-sim-latency-ms': '80' });
    expect(elapsedSince(start)).toBeGreaterThanOrEqual(80 - SLACK_MS);
    expect(response.status).toBe(200);
  });

  it('sends the stream headers at once and the first event after ttft', async () => {
    const start = performance.now();
    const response = await postChat(sim.url, streamed, { 'x-sim-ttft-ms': '150' });
    const headersAfter = elapsedSince(start);
    const reader = response.body!.getReader();
    await reader.read();
    const firstEventAfter = elapsedSince(start);
    await reader.cancel();
    expect(headersAfter).toBeLessThan(100);
    expect(firstEventAfter).toBeGreaterThanOrEqual(150 - SLACK_MS);
  });

  it('spaces the events by chunk_delay and sends `chunks` content chunks', async () => {
    const start = performance.now();
    const data = await readSseData(await postChat(sim.url, { ...streamed, model: 'sim-model@chunks=5,chunk_delay=20' }));
    // role + 5 content + finish chunk, then [DONE]: 6 gaps of 20 ms.
    expect(data).toHaveLength(8);
    expect(elapsedSince(start)).toBeGreaterThanOrEqual(6 * 20 - SLACK_MS);
  });
});

describe('fail_after knob', () => {
  it('streams that many events, then drops the connection', async () => {
    const response = await postChat(sim.url, streamed, { 'x-sim-fail-after-chunks': '3' });
    expect(response.status).toBe(200);
    const { data, failure } = await readSseUntilFailure(response);
    expect(data).toHaveLength(3);
    expect(data).not.toContain('[DONE]');
    expect(failure).toBeInstanceOf(Error);
  });

  it('drops the connection right after the headers with fail_after=0', async () => {
    const { data, failure } = await readSseUntilFailure(await postChat(sim.url, { ...streamed, model: 'sim-model@fail_after=0' }));
    expect(data).toEqual([]);
    expect(failure).toBeInstanceOf(Error);
  });

  it('sends an OpenAI error event and ends without [DONE] in error-event mode', async () => {
    const data = await readSseData(await postChat(sim.url, { ...streamed, model: 'sim-model@fail_after=2,fail_mode=error-event' }));
    expect(data).toHaveLength(3);
    expect(JSON.parse(data[2]!)).toEqual({
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    });
  });

  it('cuts a non-streaming body in the middle', async () => {
    const response = await postChat(sim.url, { ...hello, model: 'sim-model@fail_after=0' });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });
});

describe('hang knob', () => {
  it('never answers, until the client gives up', async () => {
    const start = performance.now();
    await expect(postChat(sim.url, hello, { 'x-sim-hang': '1' }, AbortSignal.timeout(150))).rejects.toThrow(/aborted/i);
    expect(elapsedSince(start)).toBeGreaterThanOrEqual(150 - SLACK_MS);
  });

  it('lets close() end a hanging connection', async () => {
    const own = await startSimulator({});
    const hanging = postChat(own.url, { ...hello, model: 'sim-model@hang=1' });
    const settled = hanging.then(
      () => 'answered',
      () => 'failed',
    );
    // The request must have arrived before closing.
    await expect.poll(async () => (await readSimStats(own.url)).requests['/v1/chat/completions']).toBe(1);
    await own.close();
    expect(await settled).toBe('failed');
  });
});

describe('malformed knob', () => {
  it('sends a body that is not JSON', async () => {
    const response = await postChat(sim.url, hello, { 'x-sim-malformed': 'true' });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.startsWith('{"id":"chatcmpl-')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('sends one SSE data line that is not JSON, then completes the stream', async () => {
    const data = await readSseData(await postChat(sim.url, { ...streamed, model: 'sim-model@malformed=1' }));
    expect(data.at(-1)).toBe('[DONE]');
    const unparseable = data.slice(0, -1).filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    expect(unparseable).toEqual([data[1]]);
  });
});
