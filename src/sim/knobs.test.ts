import { describe, expect, it } from 'vitest';
import { defaultKnobs, parseKnobs, reportedUsage } from './knobs.js';

describe('parseKnobs', () => {
  it('gives the defaults and the model unchanged when nothing is asked', () => {
    expect(parseKnobs('sim-model', {})).toEqual({ ok: true, model: 'sim-model', knobs: defaultKnobs() });
    expect(parseKnobs(undefined, {})).toEqual({ ok: true, model: undefined, knobs: defaultKnobs() });
  });

  it('reads every knob from the model-name suffix and strips it from the model', () => {
    const result = parseKnobs(
      'sim-model@status=503,retry_after=1,latency=50,chunks=10,chunk_delay=5,fail_after=3,fail_mode=error-event,hang=1,malformed=true,ttft=20,raw_audio=1',
      {},
    );
    expect(result).toEqual({
      ok: true,
      model: 'sim-model',
      knobs: {
        status: 503,
        retryAfterSeconds: 1,
        latencyMs: 50,
        chunks: 10,
        chunkDelayMs: 5,
        failAfterChunks: 3,
        failMode: 'error-event',
        hang: true,
        malformed: true,
        ttftMs: 20,
        rawAudio: true,
      },
    });
  });

  it('reads every knob from x-sim-* headers', () => {
    const result = parseKnobs('sim-model', {
      'x-sim-latency-ms': '7',
      'x-sim-ttft-ms': '8',
      'x-sim-chunk-delay-ms': '9',
      'x-sim-chunks': '4',
      'x-sim-status': '429',
      'x-sim-retry-after': '2',
      'x-sim-fail-after-chunks': '0',
      'x-sim-fail-mode': 'disconnect',
      'x-sim-hang': 'false',
      'x-sim-malformed': '1',
      'x-sim-raw-audio': 'false',
    });
    expect(result).toEqual({
      ok: true,
      model: 'sim-model',
      knobs: {
        latencyMs: 7,
        ttftMs: 8,
        chunkDelayMs: 9,
        chunks: 4,
        status: 429,
        retryAfterSeconds: 2,
        failAfterChunks: 0,
        failMode: 'disconnect',
        hang: false,
        malformed: true,
        rawAudio: false,
      },
    });
  });

  it('lets a header win over the same knob in the model name', () => {
    const result = parseKnobs('sim-model@status=503,latency=5', { 'x-sim-status': '500' });
    expect(result.ok && result.knobs).toMatchObject({ status: 500, latencyMs: 5 });
  });

  it('leaves an @ that carries no key=value pairs in the model name', () => {
    expect(parseKnobs('claude-3-opus@20240229', {})).toMatchObject({ ok: true, model: 'claude-3-opus@20240229' });
    expect(parseKnobs('vendor@v2@chunks=3', {})).toMatchObject({ ok: true, model: 'vendor@v2', knobs: { chunks: 3 } });
  });

  it.each([
    ['sim-model@bogus=1', "Unknown simulator knob 'bogus'"],
    ['sim-model@status=200', "Invalid value '200' for simulator knob 'status'"],
    ['sim-model@latency=-1', "Invalid value '-1' for simulator knob 'latency'"],
    ['sim-model@chunks=0', "Invalid value '0' for simulator knob 'chunks'"],
    ['sim-model@hang=maybe', "Invalid value 'maybe' for simulator knob 'hang'"],
    ['sim-model@fail_mode=explode', "Invalid value 'explode' for simulator knob 'fail_mode'"],
    ['sim-model@latency=', "Invalid value '' for simulator knob 'latency'"],
    ['sim-model@usage=cost:1', "Invalid value 'cost:1' for simulator knob 'usage'"],
    ['sim-model@usage=prompt_tokens', "Invalid value 'prompt_tokens' for simulator knob 'usage'"],
  ])('rejects %s', (model, message) => {
    const result = parseKnobs(model, {});
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(message);
  });

  it('rejects an invalid header value, naming the header', () => {
    const result = parseKnobs('sim-model', { 'x-sim-chunk-delay-ms': 'fast' });
    expect(result).toEqual({ ok: false, message: "Invalid value 'fast' for header 'x-sim-chunk-delay-ms'" });
  });

  it('reads usage figures to report, as JSON when they parse and as text otherwise', () => {
    const result = parseKnobs('sim-model@usage=cached_tokens:-1000000000;prompt_tokens:abc;completion_tokens:1e308', {});
    expect(result).toMatchObject({
      ok: true,
      model: 'sim-model',
      knobs: { usage: { cached_tokens: -1_000_000_000, prompt_tokens: 'abc', completion_tokens: 1e308 } },
    });
    expect(parseKnobs('sim-model', { 'x-sim-usage': 'none' })).toMatchObject({ ok: true, knobs: { usage: 'none' } });
  });
});

describe('reportedUsage', () => {
  const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 } };

  it('reports the true usage without the knob, none for `none`, and the knob’s figures in their places otherwise', () => {
    expect(reportedUsage(usage, undefined)).toBe(usage);
    expect(reportedUsage(usage, 'none')).toBeUndefined();
    expect(reportedUsage(usage, { cached_tokens: -1, reasoning_tokens: 'x', total_tokens: null })).toEqual({
      ...usage,
      total_tokens: null,
      prompt_tokens_details: { cached_tokens: -1, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 'x' },
    });
    expect(usage.prompt_tokens_details.cached_tokens).toBe(0);
  });
});
