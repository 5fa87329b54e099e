import type { TranscriptionAdapter } from '../../protocol/adapters.js';
import { bearerKey } from '../shared/bearer-key.js';
import { readUpstreamAnswer } from '../shared/read-upstream-body.js';
import { sendUpstreamRequest } from '../shared/send-upstream-request.js';
import { convertOpenAITranscriptionResponse } from './convert-openai-transcription-response.js';
import { convertToOpenAITranscriptionRequest } from './convert-to-openai-transcription-request.js';
import { parseOpenAIError } from './parse-openai-error.js';

/** OpenAI's speech to text (multipart POST {base}/audio/transcriptions): Whisper and the gpt-4o transcribe models. */
export const openAITranscriptionAdapter: TranscriptionAdapter = {
  kind: 'openai',
  async transcribe(request, target, context) {
    const response = await sendUpstreamRequest({
      url: `${target.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`,
      headers: { accept: 'application/json', ...bearerKey(target), ...target.headers },
      form: convertToOpenAITranscriptionRequest(request, target),
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseOpenAIError,
    });
    return readUpstreamAnswer(response, convertOpenAITranscriptionResponse, 'a transcript');
  },
};
