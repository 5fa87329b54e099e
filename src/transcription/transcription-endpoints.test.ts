import { describe, expect, it } from 'vitest';
import { billableSeconds, fitTranscriptionAttempts } from './transcription-endpoints.js';
import { maxAudioSeconds } from './transcription-usage.js';

const whisper = { endpoint: {} as { maxAudioSeconds?: number; responseFormats?: readonly string[] } };
const gpt4o = { endpoint: { maxAudioSeconds: 1500, responseFormats: ['json', 'text'] } };

describe('billableSeconds', () => {
  it('is the longest audio the file can hold, and no more than the model takes', () => {
    const bytes = 25 * 1024 * 1024;
    expect(billableSeconds(whisper.endpoint, bytes)).toBe(maxAudioSeconds(bytes));
    expect(billableSeconds(gpt4o.endpoint, bytes)).toBe(1500);
    expect(billableSeconds(gpt4o.endpoint, 100)).toBe(1);
  });
});

describe('fitTranscriptionAttempts', () => {
  it('keeps the endpoints that answer the format and take audio this long, in plan order', () => {
    expect(fitTranscriptionAttempts([gpt4o, whisper], 'm', { format: 'json', seconds: 10 })).toEqual({ attempts: [gpt4o, whisper] });
    expect(fitTranscriptionAttempts([gpt4o, whisper], 'm', { format: 'srt', seconds: 10 })).toEqual({ attempts: [whisper] });
    expect(fitTranscriptionAttempts([gpt4o, whisper], 'm', { format: 'json', seconds: 1600 })).toEqual({ attempts: [whisper] });
    // A duration the gateway cannot read is left to the upstream, and to the usage check.
    expect(fitTranscriptionAttempts([gpt4o], 'm', { format: 'json', seconds: undefined })).toEqual({ attempts: [gpt4o] });
  });

  it('refuses, naming response_format and the formats the model answers, when no endpoint answers the format', () => {
    expect(fitTranscriptionAttempts([gpt4o], 'openai/gpt-4o-transcribe', { format: 'srt' })).toEqual({
      attempts: [],
      refusal: 'response_format srt is not one openai/gpt-4o-transcribe answers: it answers json, text',
    });
  });

  it('refuses, naming the limit, audio longer than every endpoint that answers the format takes', () => {
    expect(fitTranscriptionAttempts([gpt4o], 'openai/gpt-4o-transcribe', { format: 'text', seconds: 1600.04 })).toEqual({
      attempts: [],
      refusal: 'file: the audio lasts 1600 s, longer than the 1500 s openai/gpt-4o-transcribe takes (max_audio_seconds)',
    });
  });
});
