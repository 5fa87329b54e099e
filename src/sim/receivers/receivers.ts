import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../chat-route.js';
import { sendJson } from '../deliver.js';
import { SAAS_RECEIVERS, type SaasReceived } from './saas-receivers.js';

/** What the simulated observability receivers got, by protocol, in arrival order (accepted requests only). */
export interface ReceivedLog extends SaasReceived {
  webhook: { method: string; path: string; headers: Record<string, string>; body: unknown }[];
  /** OTLP/HTTP JSON: each resource span's spans, flattened. */
  otlp: { resource: unknown; scope: unknown; span: Record<string, unknown>; headers: Record<string, string> }[];
  langfuse: { auth: string; event: { id: string; type: string; timestamp: string; body: Record<string, unknown> } }[];
}

/** A fault every receiver plays until cleared: an outage (a status), a slow answer, an oversized body. */
export interface ReceiverFault {
  status?: number;
  delayMs?: number;
  /** Bytes of body to answer with (a receiver that answers 100 MB). */
  bodyBytes?: number;
}

export interface Receivers {
  received: ReceivedLog;
  fault: ReceiverFault;
}

export const newReceivers = (): Receivers => ({
  received: { webhook: [], otlp: [], langfuse: [], langsmith: [], posthog: [], datadog: [] },
  fault: {},
});

const LANGFUSE_TYPES = new Set([
  'trace-create',
  'generation-create',
  'generation-update',
  'span-create',
  'span-update',
  'event-create',
  'score-create',
  'sdk-log',
]);

const flat = (req: IncomingMessage) =>
  Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));

/**
 * The receivers of observability destinations: a webhook (any JSON under
 * /receivers/webhook/…), an OTLP/HTTP collector (POST /receivers/otlp/v1/traces,
 * JSON encoding: ExportTraceServiceRequest in, ExportTraceServiceResponse out)
 * and Langfuse's ingestion API (POST /receivers/langfuse/api/public/ingestion:
 * basic auth, a `batch` of typed events, 207 with successes and errors per
 * event), LangSmith's batch ingestion, PostHog's batch capture and Datadog's
 * LLM Observability spans intake (receivers/saas-receivers.ts). Each checks what its protocol requires and refuses the rest as the
 * service would, and records what it accepted (GET /__sim/receivers).
 */
export async function handleReceiver(req: IncomingMessage, res: ServerResponse, receivers: Receivers, path: string): Promise<boolean> {
  if (!path.startsWith('/receivers/')) return false;
  const body = await readBody(req);
  const { fault } = receivers;
  if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  if (fault.bodyBytes) {
    res.writeHead(fault.status ?? 200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let left = fault.bodyBytes;
    const pump = () => {
      while (left > 0) {
        left -= chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (left = 0));
    pump();
    return true;
  }
  if (fault.status) {
    sendJson(res, fault.status, JSON.stringify({ error: 'simulated outage' }), fault.status === 429 ? { 'retry-after': '0' } : {});
    return true;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    sendJson(res, 400, JSON.stringify({ error: 'body is not JSON' }));
    return true;
  }
  if (path.startsWith('/receivers/webhook/') && (req.method === 'POST' || req.method === 'PUT')) {
    receivers.received.webhook.push({ method: req.method, path, headers: flat(req), body: parsed });
    sendJson(res, 200, '{"ok":true}');
    return true;
  }
  if (path === '/receivers/otlp/v1/traces' && req.method === 'POST') return otlp(req, res, receivers, parsed);
  if (path === '/receivers/langfuse/api/public/ingestion' && req.method === 'POST') return langfuse(req, res, receivers, parsed);
  const saas = SAAS_RECEIVERS[`${req.method} ${path}`];
  if (saas) {
    const answer = saas(req.headers, parsed, body, receivers.received);
    sendJson(res, answer.status, answer.body);
    return true;
  }
  sendJson(res, 404, JSON.stringify({ error: `no receiver at ${req.method} ${path}` }));
  return true;
}

function otlp(req: IncomingMessage, res: ServerResponse, receivers: Receivers, parsed: unknown): true {
  if (!req.headers['content-type']?.startsWith('application/json')) {
    sendJson(res, 415, JSON.stringify({ error: 'OTLP/HTTP JSON needs content-type application/json' }));
    return true;
  }
  const resourceSpans = (parsed as { resourceSpans?: unknown }).resourceSpans;
  if (!Array.isArray(resourceSpans)) {
    sendJson(res, 400, JSON.stringify({ code: 3, message: 'resourceSpans must be an array' }));
    return true;
  }
  for (const rs of resourceSpans as { resource?: unknown; scopeSpans?: { scope?: unknown; spans?: Record<string, unknown>[] }[] }[])
    for (const ss of rs.scopeSpans ?? [])
      for (const span of ss.spans ?? []) {
        // The protocol's fixed fields: hex ids of 16 and 8 bytes, times as decimal nanosecond strings.
        if (
          !/^[0-9a-f]{32}$/.test(String(span.traceId)) ||
          !/^[0-9a-f]{16}$/.test(String(span.spanId)) ||
          !/^\d+$/.test(String(span.startTimeUnixNano))
        ) {
          sendJson(res, 400, JSON.stringify({ code: 3, message: 'a span has invalid ids or times' }));
          return true;
        }
        receivers.received.otlp.push({ resource: rs.resource, scope: ss.scope, span, headers: flat(req) });
      }
  sendJson(res, 200, JSON.stringify({ partialSuccess: {} }));
  return true;
}

function langfuse(req: IncomingMessage, res: ServerResponse, receivers: Receivers, parsed: unknown): true {
  const auth = req.headers.authorization ?? '';
  const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
  if (!/^pk-[^:]+:sk-.+$/.test(decoded)) {
    sendJson(res, 401, JSON.stringify({ message: 'Invalid credentials. Confirm that you have used the correct host.' }));
    return true;
  }
  const batch = (parsed as { batch?: unknown }).batch;
  if (!Array.isArray(batch)) {
    sendJson(res, 400, JSON.stringify({ message: 'batch must be an array' }));
    return true;
  }
  const successes: { id: string; status: number }[] = [];
  const errors: { id: string; status: number; message: string }[] = [];
  for (const event of batch as Record<string, unknown>[]) {
    const id = String(event.id ?? '');
    const body = event.body as Record<string, unknown> | undefined;
    if (!id || !LANGFUSE_TYPES.has(String(event.type)) || typeof event.timestamp !== 'string' || !body || typeof body !== 'object')
      errors.push({ id, status: 400, message: 'Invalid request data' });
    else if (event.type === 'generation-create' && typeof body.traceId !== 'string')
      errors.push({ id, status: 400, message: 'generation-create needs a traceId' });
    else {
      receivers.received.langfuse.push({ auth: decoded.split(':')[0]!, event: event as ReceivedLog['langfuse'][number]['event'] });
      successes.push({ id, status: 201 });
    }
  }
  sendJson(res, 207, JSON.stringify({ successes, errors }));
  return true;
}
