import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readObservabilitySettings } from '../../src/config/observability-settings.js';
import { Observability } from '../../src/observability/observability.js';
import { startTracing, type Tracing } from '../../src/observability/tracing/start-tracing.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/** A span as OTLP/HTTP's JSON encoding carries it. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number };
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** A local OTLP receiver: POST /v1/traces, JSON encoding, as a collector takes it on port 4318. */
async function startReceiver(): Promise<{ url: string; spans: OtlpSpan[]; contentTypes: string[]; server: Server }> {
  const spans: OtlpSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(req.headers['content-type'] ?? '');
      const request = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const resource of request.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, contentTypes, server };
}

/** An attribute's value, whatever its OTLP type. */
function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  if ('arrayValue' in value)
    return ((value.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map((v) => Object.values(v)[0]);
  const raw = Object.values(value)[0];
  return 'intValue' in value ? Number(raw) : raw;
}

const messages = [{ role: 'user', content: 'hello there' }];

describe.each(testEngines)('traces over OTLP/HTTP on $name', (engine) => {
  let sim: Simulator;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let tracing: Tracing;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    receiver = await startReceiver();
    // As the gateway's start reads them: the standard variable names the receiver.
    const { tracesUrl } = readObservabilitySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    tracing = startTracing({ url: tracesUrl!, version: 'test' });
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta'],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
      ],
    );
    gw = await startGateway(engine, { catalog, observability: new Observability({ tracing }) });
  });
  afterAll(async () => {
    await gw.close();
    await tracing.shutdown();
    await sim.close();
    await new Promise((resolve) => receiver.server.close(resolve));
  });
  beforeEach(() => {
    receiver.spans.length = 0;
  });

  it("continues the client's trace: the request's span, routing, each attempt with the GenAI attributes, the plugin stage and the ledger write; the upstream gets the attempt's traceparent", async () => {
    const traceId = randomBytes(16).toString('hex');
    const clientSpan = randomBytes(8).toString('hex');
    const res = await call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      headers: { traceparent: `00-${traceId}-${clientSpan}-01` },
      body: {
        model: 'sim/flaky',
        messages,
        max_tokens: 50,
        temperature: 0.5,
        response_format: { type: 'json_object' },
        plugins: [{ id: 'response-healing' }],
      },
    });
    expect(res.status).toBe(200);
    const upstreamHeaders = (await readSimStats(sim.url)).lastRequestHeaders as Record<string, string>;
    await tracing.flush();
    expect(receiver.contentTypes[0]).toBe('application/json');

    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    const named = (name: string) => spans.filter((s) => s.name === name);
    const [request] = named('POST /api/v1/chat/completions');
    expect(request).toBeDefined();
    expect(request!.parentSpanId).toBe(clientSpan);
    expect(request!.kind).toBe(2); // SERVER
    expect(attribute(request!, 'http.route')).toBe('/api/v1/chat/completions');
    expect(attribute(request!, 'http.response.status_code')).toBe(200);
    expect(attribute(request!, 'gen_ai.request.model')).toBe('sim/flaky');
    expect(attribute(request!, 'gen_ai.response.model')).toBe('sim/flaky');
    expect(attribute(request!, 'gen_ai.provider.name')).toBe('beta');
    expect(attribute(request!, 'gen_ai.usage.input_tokens')).toBe(res.body.usage.prompt_tokens);
    expect(attribute(request!, 'gen_ai.usage.output_tokens')).toBe(res.body.usage.completion_tokens);
    expect(attribute(request!, 'gateway.generation_id')).toBe(res.body.id);

    const childrenOfRequest = (name: string) => named(name).filter((s) => s.parentSpanId === request!.spanId);
    expect(childrenOfRequest('routing')).toHaveLength(1);
    expect(childrenOfRequest('ledger write')).toHaveLength(1);
    expect(childrenOfRequest('plugin response-healing')).toHaveLength(1);

    const attempts = childrenOfRequest('chat sim/flaky');
    expect(attempts.map((a) => attribute(a, 'gen_ai.provider.name'))).toEqual(['alpha', 'beta']);
    const [failed, served] = attempts;
    expect(failed!.status?.code).toBe(2); // ERROR
    expect(attribute(failed!, 'error.type')).toBe('http_5xx');
    expect(served!.kind).toBe(3); // CLIENT
    expect(attribute(served!, 'gen_ai.operation.name')).toBe('chat');
    expect(attribute(served!, 'gen_ai.request.model')).toBe('sim-model');
    expect(attribute(served!, 'gen_ai.request.max_tokens')).toBe(50);
    expect(attribute(served!, 'gen_ai.request.temperature')).toBe(0.5);
    expect(attribute(served!, 'gen_ai.usage.input_tokens')).toBe(res.body.usage.prompt_tokens);
    expect(attribute(served!, 'gen_ai.usage.output_tokens')).toBe(res.body.usage.completion_tokens);
    expect(attribute(served!, 'gen_ai.response.finish_reasons')).toEqual(['stop']);
    expect(attribute(served!, 'gen_ai.response.id')).toEqual(expect.any(String));

    // W3C trace context passed on: the upstream's parent is the attempt that called it.
    expect(upstreamHeaders.traceparent).toBe(`00-${traceId}-${served!.spanId}-01`);
  });

  it("gives a stream's serving attempt its time to first chunk, and a request without trace context a trace of its own", async () => {
    const res = await fetch(`${gw.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim/fast', stream: true, messages }),
    });
    await res.text();
    await tracing.flush();
    const [request] = receiver.spans.filter((s) => s.name === 'POST /api/v1/chat/completions');
    expect(request!.parentSpanId ?? '').toBe('');
    const [attempt] = receiver.spans.filter((s) => s.name === 'chat sim/fast');
    expect(attempt!.traceId).toBe(request!.traceId);
    expect(attempt!.parentSpanId).toBe(request!.spanId);
    expect(attribute(attempt!, 'gen_ai.request.stream')).toBe(true);
    expect(attribute(attempt!, 'gen_ai.response.time_to_first_chunk')).toEqual(expect.any(Number));
    expect(attribute(attempt!, 'gen_ai.usage.output_tokens')).toBeGreaterThan(0);
  });
});
