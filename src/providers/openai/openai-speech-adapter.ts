import type { SpeechAdapter } from '../../protocol/adapters.js';
import { bearerKey } from '../shared/bearer-key.js';
import { sendUpstreamRequest } from '../shared/send-upstream-request.js';
import { streamedBody } from '../shared/streamed-video.js';
import { convertToOpenAISpeechRequest } from './convert-to-openai-speech-request.js';
import { parseOpenAIError } from './parse-openai-error.js';

/** The audio types of OpenAI's formats, for an answer that names none. */
const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** OpenAI's text to speech (POST {base}/audio/speech): the audio streams back as it is made. */
export const openAISpeechAdapter: SpeechAdapter = {
  kind: 'openai',
  async speak(request, target, context) {
    const response = await sendUpstreamRequest({
      url: `${target.baseUrl.replace(/\/+$/, '')}/audio/speech`,
      headers: { accept: 'audio/*', ...bearerKey(target), ...target.headers },
      body: convertToOpenAISpeechRequest(request, target),
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseOpenAIError,
    });
    return streamedBody(response, AUDIO_TYPES[request.response_format] ?? 'application/octet-stream');
  },
};
