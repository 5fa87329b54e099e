import { describe, expect, it } from 'vitest';
import { convertToOpenAISpeechRequest } from './convert-to-openai-speech-request.js';

describe('convertToOpenAISpeechRequest', () => {
  it('sends the text, voice and format, speed and instructions when asked, nothing of the gateway’s own', () => {
    const request = { model: 'openai/tts', input: 'hi', voice: 'coral', response_format: 'mp3', provider: { sort: 'price' }, user: 'u' };
    expect(convertToOpenAISpeechRequest(request, { upstreamModel: 'tts-1' })).toEqual({
      model: 'tts-1',
      input: 'hi',
      voice: 'coral',
      response_format: 'mp3',
    });
    expect(
      convertToOpenAISpeechRequest({ ...request, speed: 1.5, instructions: 'cheerful' }, { upstreamModel: 'gpt-4o-mini-tts' }),
    ).toMatchObject({ speed: 1.5, instructions: 'cheerful' });
  });
});
