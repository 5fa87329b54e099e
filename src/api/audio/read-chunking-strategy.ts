import { Errors } from '../../http/errors.js';
import type { ChunkingStrategy } from '../../protocol/transcription.js';
import { isRecord } from '../../util/is-record.js';

/** The server VAD's settings: each a number within its range. */
const VAD_SETTINGS = { prefix_padding_ms: [0, 10_000], silence_duration_ms: [0, 10_000], threshold: [0, 1] } as const;

/** A server VAD's settings as sent, as strings (a form) or numbers (JSON), checked against their ranges. */
function serverVad(settings: Record<string, unknown>): ChunkingStrategy {
  const { type, ...rest } = settings;
  if (type !== 'server_vad') throw Errors.invalidRequest(`chunking_strategy[type] must be server_vad (got "${String(type)}")`);
  const vad: Record<string, number> = {};
  for (const [name, raw] of Object.entries(rest)) {
    const range = VAD_SETTINGS[name as keyof typeof VAD_SETTINGS];
    if (!range)
      throw Errors.invalidRequest(`chunking_strategy[${name}] is not a setting of server_vad (${Object.keys(VAD_SETTINGS).join(', ')})`);
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof value !== 'number' || !(value >= range[0] && value <= range[1]))
      throw Errors.invalidRequest(`chunking_strategy[${name}] must be a number from ${range[0]} to ${range[1]} (got "${String(raw)}")`);
    vad[name] = value;
  }
  return { type: 'server_vad', ...vad };
}

/**
 * The request's `chunking_strategy`: `auto`; a server VAD's settings as
 * OpenAI's SDK writes them in a form (`chunking_strategy[type]=server_vad`,
 * `chunking_strategy[threshold]=0.5`) or as a JSON object (other clients,
 * the JSON body). Anything else is a 400 naming the field.
 */
export function readChunkingStrategy(fields: ReadonlyMap<string, readonly string[]>): ChunkingStrategy | undefined {
  const prefix = 'chunking_strategy[';
  const nested = [...fields].filter(([name]) => name.startsWith(prefix) && name.endsWith(']'));
  const whole = fields.get('chunking_strategy');
  if (nested.length > 0) {
    if (whole) throw Errors.invalidRequest('chunking_strategy must be sent either whole or as chunking_strategy[name] fields, not both');
    return serverVad(Object.fromEntries(nested.map(([name, values]) => [name.slice(prefix.length, -1), values.at(-1)])));
  }
  if (!whole || whole.length === 0) return undefined;
  if (whole.length > 1) throw Errors.invalidRequest(`chunking_strategy must be sent once (it was sent ${whole.length} times)`);
  const value = whole[0]!;
  if (value === 'auto') return 'auto';
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed))
    throw Errors.invalidRequest(`chunking_strategy must be "auto" or a server_vad object (got "${value.slice(0, 40)}")`);
  return serverVad(parsed);
}
