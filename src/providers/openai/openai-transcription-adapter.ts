import type { AdapterContext, TranscriptionAdapter } from '../../protocol/adapters.js';
import type { TranscriptionRequest, TranscriptionStreamEvent } from '../../protocol/transcription.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { bearerKey } from '../shared/bearer-key.js';
import { parseStreamEventJson, readUpstreamAnswer } from '../shared/read-upstream-body.js';
import { readUpstreamEvents } from '../shared/read-upstream-events.js';
import { sendUpstreamRequest, type UpstreamResponse } from '../shared/send-upstream-request.js';
import { convertOpenAITranscriptionEvent } from './convert-openai-transcription-event.js';
import { convertOpenAITranscriptionResponse } from './convert-openai-transcription-response.js';
import { convertToOpenAITranscriptionRequest } from './convert-to-openai-transcription-request.js';
import { parseOpenAIError } from './parse-openai-error.js';

/** POST {base}/audio/transcriptions with the request's form (`stream=true` when it asks). */
const send = (request: TranscriptionRequest, target: UpstreamTarget, context: AdapterContext, accept: string): Promise<UpstreamResponse> =>
  sendUpstreamRequest({
    url: `${target.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`,
    headers: { accept, ...bearerKey(target), ...target.headers },
    form: convertToOpenAITranscriptionRequest(request, target),
    timeoutMs: target.timeoutMs,
    context,
    parseProviderError: parseOpenAIError,
  });

/** The canonical events of OpenAI's transcription stream; an event of no known type, or an `{"error"}` event, fails the stream. */
async function* transcriptEvents(response: UpstreamResponse): AsyncGenerator<TranscriptionStreamEvent> {
  for await (const message of readUpstreamEvents(response)) {
    if (message.data === '[DONE]') return;
    const event = convertOpenAITranscriptionEvent(parseStreamEventJson(message.data, parseOpenAIError));
    if (!event) throw new UpstreamError('malformed', 'upstream sent a transcription event that is neither a text delta nor its end');
    yield event;
  }
}

/** OpenAI's speech to text (multipart POST {base}/audio/transcriptions): Whisper and the gpt-4o transcribe models. */
export const openAITranscriptionAdapter: TranscriptionAdapter = {
  kind: 'openai',
  async transcribe(request, target, context) {
    const response = await send(request, target, context, 'application/json');
    return readUpstreamAnswer(response, convertOpenAITranscriptionResponse, 'a transcript');
  },
  // whisper-1 ignores `stream` and answers its JSON: that answer is given whole, as OpenAI gives it.
  async stream(request, target, context) {
    const response = await send({ ...request, stream: true }, target, context, 'text/event-stream, application/json');
    const contentType = response.headers['content-type'];
    if (typeof contentType === 'string' && contentType.startsWith('text/event-stream'))
      return { kind: 'events', events: transcriptEvents(response) };
    return { kind: 'whole', answer: await readUpstreamAnswer(response, convertOpenAITranscriptionResponse, 'a transcript') };
  },
};
