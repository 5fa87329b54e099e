import { describe, expect, it } from 'vitest';
import { transcriptionRefusal } from './transcription-models.js';

const ask = { model: 'whisper-1', format: 'json', granularities: [], duration: 10, chunked: false } as const;
const message = (refusal: ReturnType<typeof transcriptionRefusal>) => refusal?.body.error.message;

describe('the simulator’s rules per transcription model', () => {
  it('lets whisper answer every format, for audio of any length', () => {
    for (const format of ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const)
      expect(transcriptionRefusal({ ...ask, format, duration: 100_000 })).toBeUndefined();
  });

  it('answers OpenAI’s 400 for a format a gpt-4o transcribe model does not give', () => {
    expect(message(transcriptionRefusal({ ...ask, model: 'gpt-4o-mini-transcribe', format: 'srt' }))).toBe(
      "response_format 'srt' is not compatible with model 'gpt-4o-mini-transcribe'. Use 'json' or 'text' instead.",
    );
  });

  it('refuses audio over 1,500 s on the gpt-4o transcribe models, as OpenAI words it', () => {
    expect(transcriptionRefusal({ ...ask, model: 'gpt-4o-transcribe', duration: 1500 })).toBeUndefined();
    const refusal = transcriptionRefusal({ ...ask, model: 'gpt-4o-transcribe', duration: 1600.5 });
    expect(refusal?.status).toBe(400);
    expect(refusal?.body.error).toMatchObject({
      message: 'audio duration 1600.5 seconds is longer than 1500 seconds which is the maximum for this model',
      code: 'invalid_value',
    });
  });

  it('lets the diarize model answer diarized_json, and asks for a chunking_strategy past 30 s', () => {
    const diarize = { ...ask, model: 'gpt-4o-transcribe-diarize', format: 'diarized_json' } as const;
    expect(transcriptionRefusal({ ...diarize, duration: 30 })).toBeUndefined();
    expect(transcriptionRefusal({ ...diarize, duration: 31 })?.body.error).toMatchObject({
      message: 'chunking_strategy is required for diarization models',
      param: 'chunking_strategy',
    });
    expect(transcriptionRefusal({ ...diarize, duration: 31, chunked: true })).toBeUndefined();
    expect(message(transcriptionRefusal({ ...diarize, duration: 1401, chunked: true }))).toContain('longer than 1400 seconds');
    expect(message(transcriptionRefusal({ ...ask, format: 'diarized_json' }))).toContain(
      "response_format 'diarized_json' is not compatible",
    );
  });
});
