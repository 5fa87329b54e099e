import type { Endpoint } from '../catalog/types.js';
import type { TranscriptionFormat } from '../protocol/transcription.js';
import { maxAudioSeconds } from './transcription-usage.js';

/** What a transcription endpoint is asked to do: answer a format, for audio of this many seconds when its header tells. */
export interface TranscriptionNeeds {
  format: TranscriptionFormat;
  /** The audio's duration as the gateway read it (a WAV's header); unknown for other files. */
  seconds?: number | undefined;
}

type TranscribingEndpoint = Pick<Endpoint, 'maxAudioSeconds' | 'responseFormats'>;

/**
 * The longest audio an endpoint can bill for this file: what the file can
 * hold (maxAudioSeconds), and no more than the model takes. The bound of
 * both the hold and the usage check.
 */
export const billableSeconds = (endpoint: TranscribingEndpoint, bytes: number): number =>
  Math.min(maxAudioSeconds(bytes), endpoint.maxAudioSeconds ?? Number.POSITIVE_INFINITY);

const answers = (endpoint: TranscribingEndpoint, format: TranscriptionFormat) =>
  endpoint.responseFormats === undefined || endpoint.responseFormats.includes(format);
const takes = (endpoint: TranscribingEndpoint, seconds: number | undefined) =>
  seconds === undefined || endpoint.maxAudioSeconds === undefined || seconds <= endpoint.maxAudioSeconds;

/**
 * The planned attempts whose endpoint can serve the request: it answers the
 * format asked for and takes audio this long. When none is left, the
 * refusal names the field and the rule: the formats the model's endpoints
 * answer, or the longest audio they take.
 */
export function fitTranscriptionAttempts<A extends { endpoint: TranscribingEndpoint }>(
  attempts: readonly A[],
  model: string,
  needs: TranscriptionNeeds,
): { attempts: A[]; refusal?: string } {
  const fit = attempts.filter((a) => answers(a.endpoint, needs.format) && takes(a.endpoint, needs.seconds));
  if (fit.length > 0 || attempts.length === 0) return { attempts: fit };
  const formatted = attempts.filter((a) => answers(a.endpoint, needs.format));
  if (formatted.length === 0) {
    const formats = [...new Set(attempts.flatMap((a) => a.endpoint.responseFormats ?? []))];
    return { attempts: [], refusal: `response_format ${needs.format} is not one ${model} answers: it answers ${formats.join(', ')}` };
  }
  const longest = Math.max(...formatted.map((a) => a.endpoint.maxAudioSeconds ?? 0));
  return {
    attempts: [],
    refusal: `file: the audio lasts ${Math.round((needs.seconds ?? 0) * 10) / 10} s, longer than the ${longest} s ${model} takes (max_audio_seconds)`,
  };
}
