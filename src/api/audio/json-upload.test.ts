import { describe, expect, it } from 'vitest';
import { readJsonUpload } from './json-upload.js';

describe('readJsonUpload', () => {
  it('reads the reference’s STTRequest into the form’s fields and file', () => {
    const upload = readJsonUpload(
      {
        model: 'm',
        input_audio: { data: Buffer.from('abc').toString('base64'), format: 'mp3' },
        temperature: 0,
        timestamp_granularities: ['word'],
      },
      100,
    );
    expect(upload.file).toEqual({ bytes: Buffer.from('abc'), filename: 'audio.mp3', contentType: 'audio/mp3' });
    expect(Object.fromEntries(upload.fields)).toEqual({ model: ['m'], temperature: ['0'], 'timestamp_granularities[]': ['word'] });
  });

  it.each([
    ['a body that is no object', [], 400, 'the body must be a JSON object'],
    ['a model that is no string', { model: 1 }, 400, 'model must be a string'],
    ['a data URI', { input_audio: { data: 'data:audio/wav;base64,AAAA', format: 'wav' } }, 400, 'input_audio.data must be base64'],
    ['a format that is no name', { input_audio: { data: 'AAAA', format: '../x' } }, 400, 'input_audio must be'],
    ['audio over the cap', { input_audio: { data: 'A'.repeat(200), format: 'wav' } }, 413, 'exceeds the 100-byte limit'],
  ])('refuses %s, naming the field or limit', (_, body, statusCode, message) => {
    expect(() => readJsonUpload(body, 100)).toThrow(expect.objectContaining({ statusCode, message: expect.stringContaining(message) }));
  });
});
