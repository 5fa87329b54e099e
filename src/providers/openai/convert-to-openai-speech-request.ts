import type { SpeechRequest } from '../../protocol/speech.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';

/** OpenAI's POST /audio/speech body: the text, the voice, the format, and speed, instructions and the stream format when asked. */
export function convertToOpenAISpeechRequest(
  request: SpeechRequest,
  target: Pick<UpstreamTarget, 'upstreamModel'>,
): Record<string, unknown> {
  return {
    model: target.upstreamModel,
    input: request.input,
    ...(request.voice !== undefined ? { voice: request.voice } : {}),
    response_format: request.response_format,
    ...(request.speed !== undefined ? { speed: request.speed } : {}),
    ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
    ...(request.stream_format !== undefined ? { stream_format: request.stream_format } : {}),
  };
}
