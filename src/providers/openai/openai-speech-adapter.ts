import type { AdapterContext, SpeechAdapter } from '../../protocol/adapters.js';
import { type SpeechRequest, speechContentType } from '../../protocol/speech.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { bearerKey } from '../shared/bearer-key.js';
import { requireEventStream } from '../shared/read-upstream-body.js';
import { readUpstreamEvents } from '../shared/read-upstream-events.js';
import { sendUpstreamRequest, type UpstreamResponse } from '../shared/send-upstream-request.js';
import { streamedBody } from '../shared/streamed-video.js';
import { convertToOpenAISpeechRequest } from './convert-to-openai-speech-request.js';
import { parseOpenAIError } from './parse-openai-error.js';
import { readOpenAISpeechEvents } from './read-openai-speech-events.js';

function send(request: SpeechRequest, target: UpstreamTarget, context: AdapterContext, accept: string) {
  return sendUpstreamRequest({
    url: `${target.baseUrl.replace(/\/+$/, '')}/audio/speech`,
    headers: { accept, ...bearerKey(target), ...target.headers },
    body: convertToOpenAISpeechRequest(request, target),
    timeoutMs: target.timeoutMs,
    context,
    parseProviderError: parseOpenAIError,
  });
}

/** A 2xx answer's audio as it streams, its type the format's unless the upstream names one. */
const audioOf = (response: UpstreamResponse, request: SpeechRequest) => streamedBody(response, speechContentType(request.response_format));

/**
 * Whether a 2xx answer is raw audio: `audio/*`, or bytes of no named type.
 * Hosts that copy OpenAI's API but not its events (Kokoro-FastAPI,
 * openedai-speech, LocalAI) answer so whatever `stream_format` asks.
 */
function isRawAudio(response: UpstreamResponse): boolean {
  const type = response.headers['content-type'];
  return typeof type === 'string' && /^(audio\/|application\/octet-stream)/i.test(type);
}

/** OpenAI's text to speech (POST {base}/audio/speech): the audio streams back as it is made, raw or as events. */
export const openAISpeechAdapter: SpeechAdapter = {
  kind: 'openai',
  async speak(request, target, context) {
    return audioOf(await send(request, target, context, 'audio/*'), request);
  },
  async speakEvents(request, target, context) {
    const response = await send({ ...request, stream_format: 'sse' }, target, context, 'text/event-stream');
    if (isRawAudio(response)) return audioOf(response, request);
    await requireEventStream(response);
    return readOpenAISpeechEvents(readUpstreamEvents(response));
  },
};
