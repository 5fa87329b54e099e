import type { TranscriptionFormat } from '../../protocol/transcription.js';
import { type OpenAiError, openAiError, SimErrors } from '../openai-errors.js';

/** What the simulator asks of a transcription before it transcribes: the model's rules as OpenAI applies them. */
export interface TranscriptionAsk {
  model: string;
  format: TranscriptionFormat;
  granularities: readonly string[];
  /** Seconds of audio, as the simulator read them. */
  duration: number;
  /** Whether a chunking_strategy was sent. */
  chunked: boolean;
}

/** One model's rules: the formats it answers, the longest audio it takes, and whether it is billed by token. */
interface ModelRules {
  formats: readonly TranscriptionFormat[];
  maxSeconds?: number;
  tokenBilled: boolean;
  /** Labels speakers (diarized_json), and needs a chunking_strategy for audio over 30 s. */
  diarizes?: boolean;
}

const WHISPER: ModelRules = { formats: ['json', 'text', 'srt', 'verbose_json', 'vtt'], tokenBilled: false };
/** The gpt-4o transcribe models: json or text, by token, and audio of at most 1,500 s. */
const GPT_4O: ModelRules = { formats: ['json', 'text'], maxSeconds: 1_500, tokenBilled: true };

/** gpt-4o-transcribe-diarize: json, text or diarized_json, by token, audio of at most 1,400 s. */
const DIARIZE: ModelRules = { formats: ['json', 'text', 'diarized_json'], maxSeconds: 1_400, tokenBilled: true, diarizes: true };
/** The longest audio a diarizing model takes without a chunking_strategy, as OpenAI documents. */
const UNCHUNKED_SECONDS = 30;

/** A model's rules by its name (its dated snapshots included); other names are whisper's. */
export const rulesOf = (model: string): ModelRules =>
  /^gpt-4o-transcribe-diarize/.test(model) ? DIARIZE : /^gpt-4o(-mini)?-transcribe/.test(model) ? GPT_4O : WHISPER;

/** OpenAI's 400 for a transcription its model cannot make, or undefined. */
export function transcriptionRefusal({ model, format, granularities, duration, chunked }: TranscriptionAsk): OpenAiError | undefined {
  const rules = rulesOf(model);
  if (!rules.formats.includes(format)) {
    const others = rules.formats.map((f) => `'${f}'`).join(' or ');
    return openAiError(400, `response_format '${format}' is not compatible with model '${model}'. Use ${others} instead.`, {
      param: 'response_format',
      code: 'unsupported_value',
    });
  }
  if (rules.tokenBilled && granularities.length > 0)
    return SimErrors.invalidValue('timestamp_granularities[]', granularities.join(', '), ['(none with this model)']);
  if (rules.maxSeconds !== undefined && duration > rules.maxSeconds)
    return openAiError(
      400,
      `audio duration ${duration} seconds is longer than ${rules.maxSeconds} seconds which is the maximum for this model`,
      {
        code: 'invalid_value',
      },
    );
  if (rules.diarizes && duration > UNCHUNKED_SECONDS && !chunked)
    return openAiError(400, 'chunking_strategy is required for diarization models', { param: 'chunking_strategy', code: 'invalid_value' });
  return undefined;
}
