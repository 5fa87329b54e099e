import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { tracedStep } from './observe-runs.js';

function tracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test'), spans: () => exporter.getFinishedSpans() };
}

describe('tracedStep', () => {
  it("ends a synchronous step's span when it returns, and returns its value", () => {
    const { tracer: t, spans } = tracer();
    expect(tracedStep(t, 'routing', () => 42)).toBe(42);
    expect(spans().map((s) => s.name)).toEqual(['routing']);
  });

  it("ends an asynchronous step's span when its promise settles, failed ones with their error", async () => {
    const { tracer: t, spans } = tracer();
    const pending = tracedStep(t, 'plugin web', async () => 'done');
    expect(spans()).toHaveLength(0);
    await expect(pending).resolves.toBe('done');
    await expect(tracedStep(t, 'plugin moderation', async () => Promise.reject(new Error('blocked')))).rejects.toThrow('blocked');
    expect(() =>
      tracedStep(t, 'routing', () => {
        throw new Error('no model');
      }),
    ).toThrow('no model');
    expect(spans().map((s) => [s.name, s.status.code, s.status.message])).toEqual([
      ['plugin web', SpanStatusCode.UNSET, undefined],
      ['plugin moderation', SpanStatusCode.ERROR, 'blocked'],
      ['routing', SpanStatusCode.ERROR, 'no model'],
    ]);
  });
});
