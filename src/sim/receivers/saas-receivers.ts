import type { IncomingHttpHeaders } from 'node:http';

/** What the SaaS receivers accepted: one entry per request, with its raw body, so what the protocol fixes is checked byte for byte. */
export interface SaasReceived {
  langsmith: { apiKey: string; tenant: string | null; body: string }[];
  posthog: { apiKey: string; body: string }[];
  datadog: { apiKey: string; body: string }[];
}

/** A receiver's answer: a status and its JSON body. */
export interface ReceiverAnswer {
  status: number;
  body: string;
}

type Receiver = (headers: IncomingHttpHeaders, parsed: unknown, raw: string, received: SaasReceived) => ReceiverAnswer;

const answer = (status: number, body: unknown): ReceiverAnswer => ({ status, body: body === '' ? '' : JSON.stringify(body) });
const header = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RUN_TYPES = new Set(['tool', 'chain', 'llm', 'retriever', 'embedding', 'prompt', 'parser']);
const SPAN_KINDS = new Set(['agent', 'workflow', 'llm', 'tool', 'task', 'embedding', 'retrieval']);

/** A dotted order's stamp of an ISO time: `%Y%m%dT%H%M%S%fZ`. */
const stampOf = (iso: string): string => {
  const at = new Date(iso).toISOString();
  return `${at.slice(0, 19).replace(/[-:]/g, '')}${at.slice(20, 23)}000Z`;
};

/**
 * LangSmith's POST /runs/batch: an `x-api-key` (its keys start `lsv2_`, or
 * `ls__` for old ones), `post` and `patch` arrays of runs, each with a UUID
 * id and trace id, a name, a known run type, a start time and a dotted order,
 * which for a root run is its start stamp and its id, and its trace id its
 * own id. 202 when accepted, 401 or 422 with a `detail` otherwise.
 */
function langsmith(headers: IncomingHttpHeaders, parsed: unknown, raw: string, received: SaasReceived): ReceiverAnswer {
  const apiKey = header(headers, 'x-api-key');
  if (!/^(lsv2_|ls__)/.test(apiKey)) return answer(401, { detail: 'Invalid token' });
  if (!isObject(parsed) || (!Array.isArray(parsed.post) && !Array.isArray(parsed.patch)))
    return answer(422, { detail: 'body must have post and/or patch arrays of runs' });
  for (const run of [...((parsed.post as unknown[]) ?? []), ...((parsed.patch as unknown[]) ?? [])]) {
    if (!isObject(run)) return answer(422, { detail: 'a run must be an object' });
    const problem = runProblem(run);
    if (problem) return answer(422, { detail: `run ${String(run.id)}: ${problem}` });
  }
  received.langsmith.push({ apiKey, tenant: header(headers, 'x-tenant-id') || null, body: raw });
  return answer(202, {});
}

function runProblem(run: Record<string, unknown>): string | undefined {
  if (!nonEmpty(run.id) || !UUID.test(run.id)) return 'id must be a UUID';
  if (!nonEmpty(run.trace_id) || !UUID.test(run.trace_id)) return 'trace_id must be a UUID';
  if (!nonEmpty(run.dotted_order)) return 'dotted_order is required';
  if (!nonEmpty(run.name)) return 'name is required';
  if (!RUN_TYPES.has(String(run.run_type))) return `run_type must be one of ${[...RUN_TYPES].join(', ')}`;
  if (!nonEmpty(run.start_time) || Number.isNaN(Date.parse(run.start_time))) return 'start_time must be a date-time';
  if (run.parent_run_id === undefined || run.parent_run_id === null) {
    if (run.trace_id !== run.id) return "a root run's trace_id must be its id";
    if (run.dotted_order !== `${stampOf(run.start_time)}${run.id}`) return "a root run's dotted_order must be its start stamp and id";
  }
  return undefined;
}

/**
 * PostHog's POST /batch/: the project key in the body (`api_key`, a `phc_`
 * key), a `batch` of events each with an `event` name and a `distinct_id`
 * (in its properties or beside them). 200 `{"status": 1}` when accepted.
 */
function posthog(_headers: IncomingHttpHeaders, parsed: unknown, raw: string, received: SaasReceived): ReceiverAnswer {
  const apiKey = isObject(parsed) ? (parsed.api_key ?? parsed.token) : undefined;
  if (!nonEmpty(apiKey) || !apiKey.startsWith('phc_'))
    return answer(401, {
      type: 'authentication_error',
      code: 'invalid_api_key',
      detail: 'Project API key invalid. You can find your project API key in PostHog project settings.',
    });
  const batch = (parsed as Record<string, unknown>).batch;
  if (!Array.isArray(batch) || batch.length === 0)
    return answer(400, { type: 'validation_error', code: 'invalid_payload', detail: 'batch must be a non-empty array' });
  for (const event of batch) {
    const distinct = isObject(event)
      ? (event.distinct_id ?? (isObject(event.properties) ? event.properties.distinct_id : undefined))
      : undefined;
    if (!isObject(event) || !nonEmpty(event.event) || !nonEmpty(distinct))
      return answer(400, {
        type: 'validation_error',
        code: 'invalid_payload',
        detail: 'every event needs an event name and a distinct_id',
      });
  }
  received.posthog.push({ apiKey, body: raw });
  return answer(200, { status: 1 });
}

/**
 * Datadog's POST /api/intake/llm-obs/v1/trace/spans: a `DD-API-KEY`, and
 * `data.type` "span" with `attributes.ml_app` and `spans`, each with a name,
 * span, trace and parent ids, an integer `start_ns` no more than 24 hours
 * old, a `duration` and a known `meta.kind`. 202 with an empty body when
 * accepted; 403 for a missing key, 400 with `errors` otherwise.
 */
function datadog(headers: IncomingHttpHeaders, parsed: unknown, raw: string, received: SaasReceived): ReceiverAnswer {
  const apiKey = header(headers, 'dd-api-key');
  if (!apiKey) return answer(403, { errors: ['Forbidden'] });
  const bad = (detail: string) => answer(400, { errors: [{ status: '400', title: 'Bad Request', detail }] });
  const data = isObject(parsed) ? parsed.data : undefined;
  if (!isObject(data) || data.type !== 'span' || !isObject(data.attributes)) return bad('data.type must be "span" with attributes');
  const { ml_app: mlApp, spans } = data.attributes;
  if (!nonEmpty(mlApp)) return bad('attributes.ml_app is required');
  if (!Array.isArray(spans) || spans.length === 0) return bad('attributes.spans must be a non-empty array');
  const oldest = (Date.now() - 24 * 3_600_000) * 1e6;
  for (const span of spans) {
    if (!isObject(span) || ![span.name, span.span_id, span.trace_id, span.parent_id].every(nonEmpty))
      return bad('a span needs name, span_id, trace_id and parent_id');
    if (!Number.isInteger(span.start_ns) || (span.start_ns as number) < oldest) return bad('start_ns must be an integer within 24 hours');
    if (typeof span.duration !== 'number' || span.duration < 0) return bad('duration must be a number of nanoseconds');
    if (!isObject(span.meta) || !SPAN_KINDS.has(String(span.meta.kind)))
      return bad(`meta.kind must be one of ${[...SPAN_KINDS].join(', ')}`);
  }
  received.datadog.push({ apiKey, body: raw });
  return answer(202, '');
}

/** By `METHOD path` under the simulator's /receivers/. */
export const SAAS_RECEIVERS: Record<string, Receiver> = {
  'POST /receivers/langsmith/runs/batch': langsmith,
  'POST /receivers/posthog/batch/': posthog,
  'POST /receivers/datadog/api/intake/llm-obs/v1/trace/spans': datadog,
};
