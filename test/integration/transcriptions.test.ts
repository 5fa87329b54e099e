import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_RATE, wav } from '../../src/sim/audio/sim-audio.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { maxAudioSeconds } from '../../src/transcription/transcription-usage.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { formPieces, rawUpload } from '../support/raw-upload.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

/** Seconds of 24 kHz 16-bit silence as a WAV file. */
const silence = (seconds: number) => wav(Buffer.alloc(Math.round(seconds * SAMPLE_RATE) * 2));
const PER_SECOND = 0.0001;
const MAX_BYTES = 2 * 1024 * 1024;
const TOKEN_PRICING = '{ prompt: 0.0000025, completion: 0.00001 }';
const DIARIZE_FIELDS = 'response_formats: [json, text, diarized_json], max_audio_seconds: 1400';
/** A transcription's form whose file is `size` bytes. */
const uploadOf = (size: number) => () =>
  formPieces([
    { name: 'model', value: 'sim/stt' },
    { name: 'file', filename: 'a.wav', size },
  ]);

const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string; metadata: unknown } }).error;

describe.each(testEngines)('transcriptions on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const form = (fields: Record<string, string | string[]>, file: Buffer | null = silence(1.5)) => {
    const body = new FormData();
    if (file) body.append('file', new Blob([file], { type: 'audio/wav' }), 'speech.wav');
    for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
    return body;
  };
  const transcribe = (body: FormData | string | Blob, key = gw.managementKey, headers: Record<string, string> = {}) =>
    fetch(`${gw.baseUrl}/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...headers }, body });
  const simCalls = async () => ((await readSimStats(sim.url)).requests['/v1/audio/transcriptions'] as number | undefined) ?? 0;
  const generation = async (res: Response) =>
    (await call(gw, 'GET', `/generation?id=${res.headers.get('x-generation-id')}`, { key: gw.managementKey })).body.data;

  beforeAll(async () => {
    sim = await startSimulator();
    const pricing = `{ audio_second: ${PER_SECOND} }`;
    const catalog = taskSimCatalog(sim.url, 'transcription', [
      { id: 'sim/stt', endpoints: [{ provider: 'openai-a', upstream: 'whisper-1', pricing }] },
      {
        id: 'sim/flaky-stt',
        endpoints: [
          { provider: 'openai-a', upstream: 'whisper-1@status=503', pricing },
          { provider: 'openai-b', upstream: 'whisper-1', pricing },
        ],
      },
      {
        id: 'sim/4o-stt',
        endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-transcribe', pricing: '{ prompt: 0.0000025, completion: 0.00001 }' }],
      },
      {
        id: 'sim/short-stt',
        endpoints: [
          {
            provider: 'openai-a',
            upstream: 'gpt-4o-transcribe',
            pricing: TOKEN_PRICING,
            fields: 'max_audio_seconds: 2, response_formats: [json, text]',
          },
          { provider: 'openai-b', upstream: 'whisper-1', pricing: '{ audio_second: 0.01 }', fields: 'max_audio_seconds: 3' },
        ],
      },
      {
        id: 'sim/4o-only-stt',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-4o-transcribe', pricing: TOKEN_PRICING, fields: 'response_formats: [json, text]' },
        ],
      },
      {
        id: 'sim/flaky-4o-stt',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-4o-transcribe@status=503', pricing: TOKEN_PRICING },
          { provider: 'openai-b', upstream: 'gpt-4o-transcribe', pricing: TOKEN_PRICING },
        ],
      },
      {
        id: 'sim/broken-4o-stt',
        endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-transcribe@fail_after=2', pricing: TOKEN_PRICING }],
      },
      {
        id: 'sim/diarize-stt',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-4o-transcribe-diarize@status=503', pricing: TOKEN_PRICING, fields: DIARIZE_FIELDS },
          { provider: 'openai-b', upstream: 'gpt-4o-transcribe-diarize', pricing: TOKEN_PRICING, fields: DIARIZE_FIELDS },
        ],
      },
      { id: 'sim/down-stt', endpoints: [{ provider: 'openai-a', upstream: 'whisper-1@status=503', pricing }] },
      { id: 'sim/pricey-stt', endpoints: [{ provider: 'openai-a', upstream: 'whisper-1', pricing: '{ audio_second: 0.01 }' }] },
    ]);
    gw = await startGateway(engine, {
      catalog,
      chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } },
      clientLimits: { transcriptionMaxBytes: MAX_BYTES },
    });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  it('answers json by default, bills the seconds the upstream reports and records an stt row', async () => {
    const res = await transcribe(form({ model: 'sim/stt', language: 'en', prompt: 'A quiet room.' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const cost = 2 * PER_SECOND; // 1.5 s, billed as OpenAI does in whole seconds, rounded up
    expect(await res.json()).toEqual({ text: 'Simulated speech, part 1 of 1.', usage: { type: 'duration', seconds: 2, cost } });
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ model: 'whisper-1', format: 'json', language: 'en' });
    const gen = await generation(res);
    expect(gen).toMatchObject({
      api_type: 'stt',
      model: 'sim/stt',
      provider_name: 'openai-a',
      status: 'success',
      streamed: false,
      total_cost: cost,
    });
    expect(gen.routing).toMatchObject({ seconds: 2 });
    expect(gen.usage_estimated).toBe(false);
  });

  it.each([
    ['text', 'text/plain; charset=utf-8', 'Simulated speech, part 1 of 1.\n'],
    ['srt', 'text/plain; charset=utf-8', '1\n00:00:00,000 --> 00:00:01,500\nSimulated speech, part 1 of 1.\n'],
    ['vtt', 'text/vtt; charset=utf-8', 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nSimulated speech, part 1 of 1.\n'],
  ])('answers %s as text of its content type', async (format, type, body) => {
    const res = await transcribe(form({ model: 'sim/stt', response_format: format }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(await res.text()).toBe(body);
  });

  it('answers verbose_json with the duration, segments and the words asked for', async () => {
    const res = await transcribe(
      form({ model: 'sim/stt', response_format: 'verbose_json', 'timestamp_granularities[]': ['word', 'segment'] }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ task: 'transcribe', language: 'english', duration: 2, text: 'Simulated speech, part 1 of 1.' });
    expect(body.segments).toEqual([expect.objectContaining({ id: 0, start: 0, end: 1.5, text: ' Simulated speech, part 1 of 1.' })]);
    expect((body.words as unknown[]).length).toBe(6);
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ format: 'verbose_json', granularities: ['word', 'segment'] });
  });

  it('bills a model billed by token by the tokens it reports, and passes on its 400 for a format it cannot give', async () => {
    const res = await transcribe(form({ model: 'sim/4o-stt' }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { usage: Record<string, number> };
    // 1.5 s: 15 audio tokens in, the 30-character transcript's 8 out.
    expect(body.usage).toMatchObject({ type: 'tokens', input_tokens: 15, output_tokens: 8, total_tokens: 23 });
    const gen = await generation(res);
    expect(gen).toMatchObject({ api_type: 'stt', tokens_prompt: 15, tokens_completion: 8, usage_estimated: false });
    expect(gen.total_cost).toBeCloseTo(15 * 0.0000025 + 8 * 0.00001, 12);
    const srt = await transcribe(form({ model: 'sim/4o-stt', response_format: 'srt' }));
    expect(srt.status).toBe(400);
    expect((await errorOf(srt)).message).toContain("response_format 'verbose_json' is not compatible with model 'gpt-4o-transcribe'");
  });

  it('skips the endpoints that cannot answer the format or take audio this long, and refuses when none can, before any call', async () => {
    const srt = await transcribe(form({ model: 'sim/short-stt', response_format: 'srt' }));
    expect(srt.status).toBe(200);
    expect((await generation(srt)).provider_name).toBe('openai-b');
    const longer = await transcribe(form({ model: 'sim/short-stt' }, silence(2.5)));
    expect(longer.status).toBe(200);
    expect((await generation(longer)).provider_name).toBe('openai-b');
    expect(await simCalls()).toBe(2);
    const tooLong = await transcribe(form({ model: 'sim/short-stt' }, silence(3.5)));
    expect(tooLong.status).toBe(400);
    expect((await errorOf(tooLong)).message).toBe(
      'file: the audio lasts 3.5 s, longer than the 3 s sim/short-stt takes (max_audio_seconds)',
    );
    const format = await transcribe(form({ model: 'sim/4o-only-stt', response_format: 'vtt' }));
    expect(format.status).toBe(400);
    expect((await errorOf(format)).message).toBe('response_format vtt is not one sim/4o-only-stt answers: it answers json, text');
    expect(await simCalls()).toBe(2);
  });

  it('holds no more than the longest audio the model takes, however large the file', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'bounded', limit: 0.05 } });
    // 0.5 s of WAV in a 200 kB file: the file could hold 800 s ($8 at a cent a second), the model takes 3 s at most ($0.03).
    const padded = Buffer.concat([silence(0.5), Buffer.alloc(200_000)]);
    const res = await transcribe(form({ model: 'sim/short-stt', response_format: 'verbose_json' }, padded), created.body.key);
    expect(res.status).toBe(200);
    expect((await generation(res)).total_cost).toBe(0.01);
  });

  /** The data of each server-sent event of a body. */
  const eventsOf = (body: string) =>
    body
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>);

  it.each([
    ['its first endpoint', 'sim/4o-stt', ['openai-a', 200]],
    ['the endpoint after one that answers 503', 'sim/flaky-4o-stt', ['openai-b', 200]],
  ])(
    'streams a gpt-4o transcript from %s: its deltas, then the done event with the usage and cost, after the row',
    async (_, model, served) => {
      const res = await transcribe(form({ model, stream: 'true' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const events = eventsOf(await res.text());
      const deltas = events.filter((e) => e.type === 'transcript.text.delta').map((e) => e.delta);
      expect(deltas.join('')).toBe('Simulated speech, part 1 of 1.');
      const done = events.at(-1)!;
      const cost = 15 * 0.0000025 + 8 * 0.00001;
      expect(done).toMatchObject({ type: 'transcript.text.done', text: 'Simulated speech, part 1 of 1.' });
      expect(done.usage).toMatchObject({ type: 'tokens', input_tokens: 15, output_tokens: 8, total_tokens: 23 });
      expect((done.usage as { cost: number }).cost).toBeCloseTo(cost, 12);
      const gen = await generation(res);
      expect(gen).toMatchObject({ api_type: 'stt', streamed: true, status: 'success', tokens_prompt: 15, tokens_completion: 8 });
      expect(gen.total_cost).toBeCloseTo(cost, 12);
      expect(gen.provider_responses.at(-1)).toMatchObject({ provider_name: served[0], status: served[1] });
    },
  );

  it('answers diarized_json past a failing endpoint, passing chunking_strategy and the known speakers on', async () => {
    const speakers = {
      'known_speaker_names[]': ['agent', 'customer'],
      'known_speaker_references[]': ['data:audio/wav;base64,AA==', 'data:audio/wav;base64,AQ=='],
    };
    const res = await transcribe(
      form(
        {
          model: 'sim/diarize-stt',
          response_format: 'diarized_json',
          'chunking_strategy[type]': 'server_vad',
          'chunking_strategy[threshold]': '0.5',
          ...speakers,
        },
        silence(35),
      ),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { segments: Record<string, unknown>[]; usage: Record<string, unknown> };
    expect(body).toMatchObject({ task: 'transcribe', duration: 35, text: expect.stringContaining('part 4 of 4') });
    expect(body.segments.map((s) => [s.id, s.speaker, s.type, s.start, s.end])).toEqual([
      ['seg_0', 'agent', 'transcript.text.segment', 0, 10],
      ['seg_1', 'customer', 'transcript.text.segment', 10, 20],
      ['seg_2', 'agent', 'transcript.text.segment', 20, 30],
      ['seg_3', 'customer', 'transcript.text.segment', 30, 35],
    ]);
    expect(body.usage).toMatchObject({ type: 'tokens', input_tokens: 350 });
    const gen = await generation(res);
    expect(gen.provider_responses.map((p: { status: number }) => p.status)).toEqual([503, 200]);
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({
      format: 'diarized_json',
      chunked: true,
      speakers: ['agent', 'customer'],
    });
    // Over 30 s without a chunking_strategy, OpenAI's own 400 comes back.
    const unchunked = await transcribe(form({ model: 'sim/diarize-stt', response_format: 'diarized_json' }, silence(35)));
    expect(unchunked.status).toBe(400);
    expect((await errorOf(unchunked)).message).toContain('chunking_strategy is required for diarization models');
  });

  it('streams a diarized transcript: the deltas naming their segment, each segment, then the done event', async () => {
    const res = await transcribe(form({ model: 'sim/diarize-stt', response_format: 'diarized_json', stream: 'true' }, silence(15)));
    const events = eventsOf(await res.text());
    expect(events.filter((e) => e.type === 'transcript.text.segment').map((e) => [e.id, e.speaker])).toEqual([
      ['seg_0', 'A'],
      ['seg_1', 'B'],
    ]);
    expect(events.find((e) => e.type === 'transcript.text.delta')).toMatchObject({ segment_id: 'seg_0' });
    expect(events.at(-1)).toMatchObject({ type: 'transcript.text.done', usage: { type: 'tokens', input_tokens: 150 } });
    expect((await generation(res)).streamed).toBe(true);
  });

  it('passes include[]=logprobs on: the json answer and each streamed delta carry the tokens’ log probabilities', async () => {
    const json = (await (await transcribe(form({ model: 'sim/4o-stt', 'include[]': 'logprobs' }))).json()) as { logprobs: unknown[] };
    expect(json.logprobs).toHaveLength(6);
    expect(json.logprobs[0]).toEqual({ token: 'Simulated', logprob: -0.01, bytes: [...Buffer.from('Simulated')] });
    const streamed = await transcribe(form({ model: 'sim/4o-stt', 'include[]': 'logprobs', stream: 'true' }));
    const events = eventsOf(await streamed.text());
    expect(events[1]).toMatchObject({ delta: ' speech,', logprobs: [{ token: ' speech,', logprob: -0.01 }] });
  });

  it('answers whisper whole when asked to stream, as OpenAI ignores stream for it', async () => {
    const res = await transcribe(form({ model: 'sim/stt', stream: 'true' }));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({
      text: 'Simulated speech, part 1 of 1.',
      usage: { type: 'duration', seconds: 2, cost: 2 * PER_SECOND },
    });
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ stream: true });
  });

  it('ends a stream that breaks after its first event with an error event, and records the run as failed', async () => {
    const res = await transcribe(form({ model: 'sim/broken-4o-stt', stream: 'true' }));
    expect(res.status).toBe(200);
    const events = eventsOf(await res.text());
    expect(events.slice(0, 2).map((e) => e.delta)).toEqual(['Simulated', ' speech,']);
    expect(events.at(-1)).toMatchObject({ error: { code: 502 } });
    const rows = await gw.store.db
      .selectFrom('generations')
      .select(['status', 'streamed'])
      .where('model', '=', 'sim/broken-4o-stt')
      .execute();
    expect(rows).toEqual([{ status: 'error', streamed: 1 }]);
    expect((await transcribe(form({ model: 'sim/stt', stream: 'maybe' })).then(errorOf)).message).toBe(
      'stream must be true or false (got "maybe")',
    );
  });

  it('falls back past an endpoint that answers 503, sending the file again', async () => {
    const res = await transcribe(form({ model: 'sim/flaky-stt' }));
    expect(res.status).toBe(200);
    const gen = await generation(res);
    expect(gen.provider_responses.map((p: { provider_name: string; status: number }) => [p.provider_name, p.status])).toEqual([
      ['openai-a', 503],
      ['openai-b', 200],
    ]);
    expect(gen.total_cost).toBe(2 * PER_SECOND);
    expect(await simCalls()).toBe(2);
  });

  it('records a failed stt row, uncharged, when every endpoint fails', async () => {
    const res = await transcribe(form({ model: 'sim/down-stt' }));
    expect(res.status).toBe(503);
    const rows = await gw.store.db
      .selectFrom('generations')
      .select(['api_type', 'status', 'total_cost', 'error_code'])
      .where('model', '=', 'sim/down-stt')
      .execute();
    expect(rows).toEqual([{ api_type: 'stt', status: 'error', total_cost: 0, error_code: 503 }]);
  });

  it('refuses with 402 the audio the key’s limit cannot cover (the longest the file can hold), before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'quiet', limit: 0.1 } });
    const file = silence(1.5);
    const res = await transcribe(form({ model: 'sim/pricey-stt' }, file), created.body.key);
    expect(res.status).toBe(402);
    expect((await errorOf(res)).metadata).toMatchObject({ limit: 'api_key', required_usd: maxAudioSeconds(file.length) * 0.01 });
    expect(await simCalls()).toBe(0);
  });

  it('refuses a file over TRANSCRIPTION_MAX_BYTES with a 413 naming the limit, and stays healthy', async () => {
    const res = await transcribe(form({ model: 'sim/stt' }, Buffer.alloc(MAX_BYTES + 1)));
    expect(res.status).toBe(413);
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_UPLOAD_TOO_LARGE');
    expect((await errorOf(res)).message).toBe(`Upload too large: the file exceeds the ${MAX_BYTES}-byte limit (TRANSCRIPTION_MAX_BYTES)`);
    const two = form({ model: 'sim/stt' });
    two.append('file', new Blob([silence(0.1)]), 'second.wav');
    expect((await transcribe(two)).status).toBe(413);
    expect(await simCalls()).toBe(0);
    const longPrompt = await transcribe(form({ model: 'sim/stt', prompt: 'x'.repeat(300_000) }));
    expect(longPrompt.status).toBe(413);
    expect((await errorOf(longPrompt)).message).toBe('Upload too large: the field prompt exceeds the 262144-byte limit of a field');
    const cut = await transcribe('--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nsim/stt', gw.managementKey, {
      'content-type': 'multipart/form-data; boundary=b',
    });
    expect(cut.status).toBe(400);
    expect(await simCalls()).toBe(0);
    expect((await transcribe(form({ model: 'sim/stt' }))).status).toBe(200);
  });

  it.each([
    ['declares a Content-Length past the limit', false],
    ['is chunked past the limit', true],
  ])('refuses an upload that %s with a 413 and closes the connection instead of reading it to its end', async (_, chunked) => {
    const total = 128 * 1024 * 1024;
    const { answer, sent } = await rawUpload(`${gw.baseUrl}/audio/transcriptions`, gw.managementKey, uploadOf(total), chunked);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('GW_ERR_UPLOAD_TOO_LARGE');
    // A declared length is refused before the body is read; a chunked one when its file passes the limit.
    expect(answer).toContain(chunked ? 'the file exceeds' : "the body's 134217");
    // The gateway stopped reading at the limit: what the socket took is the limit and the buffers between, not the body.
    expect(sent).toBeLessThan(total / 4);
    expect(await simCalls()).toBe(0);
    expect((await transcribe(form({ model: 'sim/stt' }))).status).toBe(200);
  });

  it('refuses a part whose headers pass 16 KiB with a 413, and takes one just within', async () => {
    const padded = (bytes: number) =>
      new Blob([
        `--b\r\nContent-Disposition: form-data; name="model"\r\nX-Padding: ${'x'.repeat(bytes)}\r\n\r\nsim/stt\r\n`,
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n',
        new Uint8Array(silence(0.5)),
        '\r\n--b--\r\n',
      ]);
    const multipart = { 'content-type': 'multipart/form-data; boundary=b' };
    const refused = await transcribe(padded(1024 * 1024), gw.managementKey, multipart);
    expect(refused.status).toBe(413);
    expect(refused.headers.get('x-error-code')).toBe('GW_ERR_UPLOAD_TOO_LARGE');
    expect((await errorOf(refused)).message).toBe('Upload too large: the headers of a part exceed the 16384-byte limit');
    expect(await simCalls()).toBe(0);
    expect((await transcribe(padded(16_000), gw.managementKey, multipart)).status).toBe(200);
  });

  it.each([
    ['a missing file', {}, false, 'file is required'],
    ['a missing model', {}, true, 'model is required'],
    [
      'an unknown format',
      { model: 'sim/stt', response_format: 'mp3' },
      true,
      'response_format must be one of json, text, srt, verbose_json, vtt',
    ],
    ['a temperature of 2', { model: 'sim/stt', temperature: '2' }, true, 'temperature must be a number from 0 to 1'],
    [
      'granularities without verbose_json',
      { model: 'sim/stt', 'timestamp_granularities[]': 'word' },
      true,
      'needs response_format verbose_json',
    ],
  ])('refuses %s with a 400 naming the field', async (_, fields, withFile, message) => {
    const res = await transcribe(form(fields, withFile ? silence(0.5) : null));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain(message);
    expect(await simCalls()).toBe(0);
  });

  it('takes the reference’s JSON form, base64 input_audio, under the same rules and cap', async () => {
    const json = (body: Record<string, unknown>) =>
      transcribe(JSON.stringify(body), gw.managementKey, { 'content-type': 'application/json' });
    const data = silence(1.5).toString('base64');
    const res = await json({ model: 'sim/stt', input_audio: { data, format: 'wav' }, response_format: 'text' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Simulated speech, part 1 of 1.\n');
    expect((await generation(res)).total_cost).toBe(2 * PER_SECOND);
    expect((await errorOf(await json({ model: 'sim/stt' }))).message).toContain('file is required');
    const big = await json({ model: 'sim/stt', input_audio: { data: Buffer.alloc(MAX_BYTES + 3).toString('base64'), format: 'wav' } });
    expect(big.status).toBe(413);
    expect((await errorOf(big)).message).toContain('(TRANSCRIPTION_MAX_BYTES)');
  });

  it('refuses a request without a body with a 415 in the envelope', async () => {
    const res = await fetch(`${gw.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}` },
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_NOT_MULTIPART');
  });

  it('runs the key’s guardrails on the prompt: a blocked keyword is a 403 before any upstream call', async () => {
    const made = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'guarded' } })).body;
    const guard = await call(gw, 'POST', '/guardrails', { key: gw.managementKey, body: { name: 'Guard', blocked_keywords: ['falcon'] } });
    await call(gw, 'POST', `/guardrails/${guard.body.data.id}/assignments/keys`, {
      key: gw.managementKey,
      body: { key_hashes: [made.data.hash] },
    });
    const blocked = await transcribe(form({ model: 'sim/stt', prompt: 'The falcon flies.' }), made.key);
    expect(blocked.status).toBe(403);
    expect(((await errorOf(blocked)).metadata as { patterns: string[] }).patterns).toEqual(['falcon']);
    expect((await transcribe(form({ model: 'sim/stt', prompt: 'A quiet room.' }), made.key)).status).toBe(200);
    expect(await simCalls()).toBe(1);
    await call(gw, 'DELETE', `/guardrails/${guard.body.data.id}`, { key: gw.managementKey });
  });

  it('lists the model in /models as audio in, transcription out', async () => {
    const models = await call(gw, 'GET', '/models', { key: gw.managementKey });
    const stt = models.body.data.find((m: { id: string }) => m.id === 'sim/stt');
    expect(stt.architecture).toMatchObject({
      modality: 'audio->transcription',
      input_modalities: ['audio'],
      output_modalities: ['transcription'],
    });
  });

  it('refuses a chat model here, naming its endpoint', async () => {
    const res = await transcribe(form({ model: 'sim/chat' }));
    expect((await errorOf(res)).message).toBe('Model sim/chat is a chat model: send it to POST /chat/completions');
  });
});
