import { describe, expect, it } from 'vitest';
import { convertOpenAITranscriptionEvent } from './convert-openai-transcription-event.js';
import { convertOpenAITranscriptionResponse } from './convert-openai-transcription-response.js';
import { convertToOpenAITranscriptionRequest, openAIFormatFor } from './convert-to-openai-transcription-request.js';

describe('the OpenAI transcription request', () => {
  it('asks for JSON the gateway can bill from: verbose_json for the formats drawn from segments', () => {
    expect(['json', 'text', 'srt', 'vtt', 'verbose_json'].map((f) => openAIFormatFor(f as never))).toEqual([
      'json',
      'json',
      'verbose_json',
      'verbose_json',
      'verbose_json',
    ]);
  });

  it('is a form of the file, the upstream model and the options set', async () => {
    const form = convertToOpenAITranscriptionRequest(
      {
        model: 'sim/stt',
        file: { bytes: Buffer.from('abc'), filename: 'a.wav', contentType: 'audio/wav' },
        response_format: 'srt',
        language: 'fr',
        temperature: 0,
        timestamp_granularities: ['segment'],
      },
      { upstreamModel: 'whisper-1' },
    );
    const file = form.get('file') as File;
    expect([file.name, file.type, await file.text()]).toEqual(['a.wav', 'audio/wav', 'abc']);
    expect(Object.fromEntries([...form.entries()].filter(([name]) => name !== 'file'))).toEqual({
      model: 'whisper-1',
      response_format: 'verbose_json',
      language: 'fr',
      temperature: '0',
      'timestamp_granularities[]': 'segment',
    });
    expect(form.has('prompt')).toBe(false);
    expect(form.has('stream')).toBe(false);
  });
});

describe('convertOpenAITranscriptionResponse', () => {
  it('reads verbose_json, keeping the duration and usage as they came', () => {
    const body = {
      task: 'transcribe',
      language: 'english',
      duration: 1.5,
      text: 'Hi.',
      segments: [{ id: 0, seek: 0, start: 0, end: 1.5, text: ' Hi.', tokens: [1] }],
      words: [{ word: 'Hi', start: 0, end: 0.5 }],
      usage: { type: 'duration', seconds: 2 },
    };
    expect(convertOpenAITranscriptionResponse(body)).toEqual({
      text: 'Hi.',
      language: 'english',
      duration: 1.5,
      segments: body.segments,
      words: body.words,
      usage: body.usage,
    });
  });

  it('refuses an answer without a text, or with a segment that is not one', () => {
    expect(convertOpenAITranscriptionResponse({ usage: {} })).toBeUndefined();
    expect(convertOpenAITranscriptionResponse({ text: 'x', segments: [{ id: 0, start: 'a', end: 1, text: '' }] })).toBeUndefined();
  });
});

describe('convertOpenAITranscriptionEvent', () => {
  it('reads the text deltas and the done event, keeping their other fields and the usage as they came', () => {
    const delta = { type: 'transcript.text.delta', delta: ' Hi', logprobs: [{ token: ' Hi', logprob: -0.1 }] };
    expect(convertOpenAITranscriptionEvent(delta)).toEqual(delta);
    const done = { type: 'transcript.text.done', text: 'Hi.', usage: { type: 'tokens', input_tokens: 10, output_tokens: 2 } };
    expect(convertOpenAITranscriptionEvent(done)).toEqual(done);
  });

  it('refuses an event of another type, or without its text', () => {
    expect(convertOpenAITranscriptionEvent({ type: 'transcript.text.delta' })).toBeUndefined();
    expect(convertOpenAITranscriptionEvent({ type: 'transcript.text.done', text: 3 })).toBeUndefined();
    expect(convertOpenAITranscriptionEvent({ type: 'response.created' })).toBeUndefined();
  });
});
