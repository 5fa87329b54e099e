import { describe, expect, it } from 'vitest';
import { toTranscriptionRequest } from './to-transcription-request.js';

const file = { bytes: Buffer.from('RIFF'), filename: 'a.wav', contentType: 'audio/wav' };
const fields = (entries: Record<string, string | string[]>) => new Map(Object.entries(entries).map(([k, v]) => [k, [v].flat()]));

describe('toTranscriptionRequest', () => {
  it('reads OpenAI’s fields, json by default, and leaves others out', () => {
    expect(toTranscriptionRequest(fields({ model: 'm', language: 'en', temperature: '0.2', extra: 'x' }), file)).toEqual({
      model: 'm',
      file,
      response_format: 'json',
      language: 'en',
      temperature: 0.2,
    });
    expect(
      toTranscriptionRequest(fields({ model: 'm', response_format: 'verbose_json', 'timestamp_granularities[]': ['word', 'word'] }), file)
        .timestamp_granularities,
    ).toEqual(['word']);
    expect(toTranscriptionRequest(fields({ model: 'm', stream: 'true' }), file).stream).toBe(true);
    expect(toTranscriptionRequest(fields({ model: 'm', 'include[]': 'logprobs' }), file).include).toEqual(['logprobs']);
    expect(
      toTranscriptionRequest(
        fields({
          model: 'm',
          response_format: 'diarized_json',
          chunking_strategy: 'auto',
          'known_speaker_names[]': 'agent',
          'known_speaker_references[]': 'data:audio/wav;base64,UklGRg==',
        }),
        file,
      ),
    ).toMatchObject({
      response_format: 'diarized_json',
      chunking_strategy: 'auto',
      known_speaker_names: ['agent'],
      known_speaker_references: ['data:audio/wav;base64,UklGRg=='],
    });
    expect(toTranscriptionRequest(fields({ model: 'm', stream: 'false' }), file)).not.toHaveProperty('stream');
  });

  it.each([
    ['no file', {}, undefined, 'file is required'],
    ['an empty file', { model: 'm' }, { ...file, bytes: Buffer.alloc(0) }, 'file must not be empty'],
    ['no model', {}, file, 'model is required'],
    ['a model sent twice', { model: ['a', 'b'] }, file, 'model must be sent once'],
    ['an unknown format', { model: 'm', response_format: 'xml' }, file, 'response_format must be one of'],
    ['a temperature that is no number', { model: 'm', temperature: 'warm' }, file, 'temperature must be a number from 0 to 1'],
    ['an empty temperature', { model: 'm', temperature: ' ' }, file, 'temperature must be a number'],
    [
      'an unknown granularity',
      { model: 'm', response_format: 'verbose_json', 'timestamp_granularities[]': 'line' },
      file,
      'must be word or segment',
    ],
    ['five known speakers', { model: 'm', 'known_speaker_names[]': ['a', 'b', 'c', 'd', 'e'] }, file, 'at most 4 speakers'],
    ['a name without its sample', { model: 'm', 'known_speaker_names[]': 'agent' }, file, 'one sample per name'],
    [
      'a sample that is no data URL',
      { model: 'm', 'known_speaker_names[]': 'agent', 'known_speaker_references[]': 'https://x/a.wav' },
      file,
      'known_speaker_references[0] must be a data URL',
    ],
    ['an include of something else', { model: 'm', 'include[]': 'words' }, file, 'include[] takes only logprobs'],
    ['a stream that is no boolean', { model: 'm', stream: 'yes' }, file, 'stream must be true or false'],
    ['granularities with json', { model: 'm', 'timestamp_granularities[]': 'word' }, file, 'needs response_format verbose_json'],
  ])('refuses %s with a 400 naming the field', (_, entries, upload, message) => {
    expect(() => toTranscriptionRequest(fields(entries), upload)).toThrow(
      expect.objectContaining({ statusCode: 400, message: expect.stringContaining(message) }),
    );
  });
});
