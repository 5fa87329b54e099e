/**
 * ## Simulator fault knobs
 *
 * Every chat request to the simulator can ask for latency, chunking and faults,
 * either with `x-sim-*` request headers or with a suffix on the model name after
 * `@` (so they work through any client or gateway), e.g.
 * `sim-model@status=503,retry_after=1` or `sim-model@chunks=10,chunk_delay=5`.
 * A header wins over the same knob in the model name. An unknown or invalid
 * knob is a 400 `invalid_request_error`.
 *
 * | Model-name key | Header                    | Value                   | Effect |
 * |----------------|---------------------------|-------------------------|--------|
 * | `latency`      | `x-sim-latency-ms`        | ms                      | Delay before the response headers (errors included). |
 * | `ttft`         | `x-sim-ttft-ms`           | ms                      | Delay after the headers before the first SSE event; non-streaming: added to `latency`. |
 * | `chunk_delay`  | `x-sim-chunk-delay-ms`    | ms                      | Delay between SSE events. |
 * | `chunks`       | `x-sim-chunks`            | count ≥ 1               | Number of content (or tool-argument) chunks; a text reply is lengthened to have at least this many tokens. Ignored by `fixture:` replays. |
 * | `status`       | `x-sim-status`            | 400–599                 | Answer with this HTTP status and an OpenAI-style error body (429: `rate_limit_exceeded`, 5xx: `server_error`, …). |
 * | `retry_after`  | `x-sim-retry-after`       | seconds                 | `Retry-After` header on the `status` error. |
 * | `fail_after`   | `x-sim-fail-after-chunks` | count ≥ 0               | Stream this many SSE events, then fail (see `fail_mode`); non-streaming: send the headers and half the body, then cut the connection. |
 * | `fail_mode`    | `x-sim-fail-mode`         | `disconnect` \| `error-event` | How `fail_after` fails: drop the connection (default), or send `data: {"error":{…}}` and end the stream without `[DONE]`. |
 * | `hang`         | `x-sim-hang`              | `1`/`true`              | Accept the request and never answer; the socket stays open until the client gives up. |
 * | `malformed`    | `x-sim-malformed`         | `1`/`true`              | Non-streaming: a truncated (invalid) JSON body. Streaming: the second SSE event carries truncated JSON; the stream otherwise completes. |
 * | `raw_audio`    | `x-sim-raw-audio`         | `1`/`true`              | Speech: ignore `stream_format` and answer raw audio, as local OpenAI-compatible TTS servers do (Kokoro-FastAPI, openedai-speech, LocalAI). |
 * | `usage`        | `x-sim-usage`             | `none` \| `field:value;…` | OpenAI chat completions: no usage at all (`none`), or these figures in place of the true ones. Fields: `prompt_tokens`, `completion_tokens`, `total_tokens`, `cached_tokens`, `reasoning_tokens`; a value is JSON when it parses (`-1000000000`, `1e308`, `null`), else text (`abc`). |
 *
 * Example: `curl -H 'Authorization: Bearer x' -H 'x-sim-status: 429' -H 'x-sim-retry-after: 2' …/v1/chat/completions`.
 */

export interface Knobs {
  latencyMs: number;
  ttftMs: number;
  chunkDelayMs: number;
  chunks?: number;
  status?: number;
  retryAfterSeconds?: number;
  failAfterChunks?: number;
  failMode: 'disconnect' | 'error-event';
  hang: boolean;
  malformed: boolean;
  /** A speech answers raw audio whatever `stream_format` asks (a server that ignores it). */
  rawAudio: boolean;
  /** What the answer reports as its usage instead of the true counts (a misbehaving upstream). */
  usage?: UsageKnob;
}

/** Where each figure the `usage` knob can set goes in OpenAI's usage object. */
const USAGE_FIELDS = {
  prompt_tokens: [],
  completion_tokens: [],
  total_tokens: [],
  cached_tokens: ['prompt_tokens_details'],
  reasoning_tokens: ['completion_tokens_details'],
} as const satisfies Record<string, readonly string[]>;

type UsageField = keyof typeof USAGE_FIELDS;

/** No usage at all, or figures to report in place of the true ones. */
export type UsageKnob = 'none' | Partial<Record<UsageField, unknown>>;

const isUsageField = (field: string): field is UsageField => Object.hasOwn(USAGE_FIELDS, field);

/** A figure as JSON when it parses (numbers, null, quoted text), else the text itself. */
function figure(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function usageKnob(raw: string): UsageKnob | undefined {
  if (raw === 'none') return 'none';
  const figures: Partial<Record<UsageField, unknown>> = {};
  for (const pair of raw.split(';')) {
    const colon = pair.indexOf(':');
    const field = pair.slice(0, colon).trim();
    if (colon < 0 || !isUsageField(field)) return undefined;
    figures[field] = figure(pair.slice(colon + 1).trim());
  }
  return figures;
}

/** The usage an answer reports under the `usage` knob: undefined for none, else the true usage with the knob's figures in place. */
export function reportedUsage<U extends object>(usage: U, knob: UsageKnob | undefined): object | undefined {
  if (knob === 'none') return undefined;
  if (!knob) return usage;
  const reported: Record<string, unknown> = structuredClone(usage) as Record<string, unknown>;
  for (const [field, value] of Object.entries(knob) as [UsageField, unknown][]) {
    const [parent] = USAGE_FIELDS[field];
    if (parent === undefined) reported[field] = value;
    else reported[parent] = { ...(reported[parent] as object | undefined), [field]: value };
  }
  return reported;
}

export type KnobsResult =
  | { ok: true /** The model name without the knob suffix. */; model: string | undefined; knobs: Knobs }
  | { ok: false; message: string };

type Headers = Record<string, string | string[] | undefined>;

interface KnobSpec {
  key: string;
  header: string;
  /** Stores the parsed value; false when the raw value is invalid. */
  set(knobs: Knobs, raw: string): boolean;
}

const integerAtLeast =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (raw: string): number | undefined => {
    const n = Number(raw);
    return raw.trim() !== '' && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
  };

const FLAG_VALUES = new Map([
  ['1', true],
  ['true', true],
  ['0', false],
  ['false', false],
]);
const flag = (raw: string): boolean | undefined => FLAG_VALUES.get(raw.toLowerCase());

const failMode = (raw: string): Knobs['failMode'] | undefined => (raw === 'disconnect' || raw === 'error-event' ? raw : undefined);

const knob = <K extends keyof Knobs>(key: string, header: string, field: K, parse: (raw: string) => Knobs[K] | undefined): KnobSpec => ({
  key,
  header,
  set(knobs, raw) {
    const value = parse(raw);
    if (value === undefined) return false;
    knobs[field] = value;
    return true;
  },
});

const KNOB_SPECS: readonly KnobSpec[] = [
  knob('latency', 'x-sim-latency-ms', 'latencyMs', integerAtLeast(0)),
  knob('ttft', 'x-sim-ttft-ms', 'ttftMs', integerAtLeast(0)),
  knob('chunk_delay', 'x-sim-chunk-delay-ms', 'chunkDelayMs', integerAtLeast(0)),
  knob('chunks', 'x-sim-chunks', 'chunks', integerAtLeast(1)),
  knob('status', 'x-sim-status', 'status', integerAtLeast(400, 599)),
  knob('retry_after', 'x-sim-retry-after', 'retryAfterSeconds', integerAtLeast(0)),
  knob('fail_after', 'x-sim-fail-after-chunks', 'failAfterChunks', integerAtLeast(0)),
  knob('fail_mode', 'x-sim-fail-mode', 'failMode', failMode),
  knob('hang', 'x-sim-hang', 'hang', flag),
  knob('malformed', 'x-sim-malformed', 'malformed', flag),
  knob('raw_audio', 'x-sim-raw-audio', 'rawAudio', flag),
  knob('usage', 'x-sim-usage', 'usage', usageKnob),
];

const SPEC_BY_KEY = new Map(KNOB_SPECS.map((spec) => [spec.key, spec]));

export const defaultKnobs = (): Knobs => ({
  latencyMs: 0,
  ttftMs: 0,
  chunkDelayMs: 0,
  failMode: 'disconnect',
  hang: false,
  malformed: false,
  rawAudio: false,
});

/**
 * The knobs of one request: the model-name suffix (after the last `@`, when it
 * holds `key=value` pairs; `claude@20240229`-style names are left alone), then
 * the `x-sim-*` headers on top.
 */
export function parseKnobs(model: string | undefined, headers: Headers): KnobsResult {
  const knobs = defaultKnobs();
  const at = model?.lastIndexOf('@') ?? -1;
  const suffix = model !== undefined && at >= 0 ? model.slice(at + 1) : '';
  const hasSuffix = suffix.includes('=');

  if (hasSuffix) {
    for (const pair of suffix.split(',')) {
      const [key = '', raw = ''] = pair.split('=', 2).map((part) => part.trim());
      const spec = SPEC_BY_KEY.get(key);
      if (!spec)
        return { ok: false, message: `Unknown simulator knob '${key}' in model name (known: ${[...SPEC_BY_KEY.keys()].join(', ')})` };
      if (!spec.set(knobs, raw)) return { ok: false, message: `Invalid value '${raw}' for simulator knob '${key}'` };
    }
  }
  for (const spec of KNOB_SPECS) {
    const header = headers[spec.header];
    const raw = Array.isArray(header) ? header[0] : header;
    if (raw !== undefined && !spec.set(knobs, raw.trim())) {
      return { ok: false, message: `Invalid value '${raw}' for header '${spec.header}'` };
    }
  }
  return { ok: true, model: hasSuffix ? model?.slice(0, at) : model, knobs };
}
