import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTranscriptionUsage, maxAudioSeconds, TOKENS_PER_SECOND } from './transcription-usage.js';

const text = 'Hello there.';

describe('maxAudioSeconds', () => {
  it('is the file’s bits at 2 kbit/s, rounded up, and at least a second', () => {
    expect(maxAudioSeconds(250)).toBe(1);
    expect(maxAudioSeconds(25 * 1024 * 1024)).toBe(104_858);
    expect(maxAudioSeconds(0)).toBe(1);
  });
});

describe('checkTranscriptionUsage', () => {
  it('bills the duration usage OpenAI reports, else verbose_json’s duration', () => {
    expect(checkTranscriptionUsage({ text, usage: { type: 'duration', seconds: 3 }, duration: 2.4 }, 10)).toEqual({
      seconds: 3,
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      estimated: false,
    });
    expect(checkTranscriptionUsage({ text, duration: 2.4 }, 10).seconds).toBe(2.4);
  });

  it('bills the tokens of a model billed by token, with no seconds unless reported', () => {
    expect(checkTranscriptionUsage({ text, usage: { type: 'tokens', input_tokens: 30, output_tokens: 4, total_tokens: 34 } }, 10)).toEqual({
      seconds: 0,
      usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 },
      estimated: false,
    });
  });

  it.each([
    ['negative', -1],
    ['not finite', Number.POSITIVE_INFINITY],
    ['longer than the file can hold', 11],
    ['not a number', '3'],
  ])('replaces a duration that is %s by the bound, estimated', (_, seconds) => {
    expect(checkTranscriptionUsage({ text, usage: { type: 'duration', seconds } }, 10)).toMatchObject({ seconds: 10, estimated: true });
  });

  it('takes the bound when nothing is reported', () => {
    expect(checkTranscriptionUsage({ text }, 10)).toMatchObject({ seconds: 10, estimated: true });
  });

  it('replaces token counts beyond what the audio or the transcript could hold', () => {
    const checked = checkTranscriptionUsage({ text, usage: { type: 'tokens', input_tokens: 10_000, output_tokens: 1_000 } }, 10);
    expect(checked.usage.prompt_tokens).toBe(10 * TOKENS_PER_SECOND);
    expect(checked.usage.completion_tokens).toBeLessThanOrEqual(3 * text.length + 16);
    expect(checked.estimated).toBe(true);
  });

  it('never bills more than the bound, whatever the upstream reports', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.integer({ min: 1, max: 100_000 }), (usage, duration, bound) => {
        const checked = checkTranscriptionUsage({ text, usage, duration }, bound);
        expect(Number.isFinite(checked.seconds) && checked.seconds >= 0 && checked.seconds <= bound).toBe(true);
        expect(checked.usage.prompt_tokens).toBeLessThanOrEqual(bound * TOKENS_PER_SECOND);
        expect(checked.usage.completion_tokens).toBeLessThanOrEqual(bound * TOKENS_PER_SECOND);
      }),
    );
  });
});
