import { describe, expect, it } from 'vitest';
import { newReceivers } from '../../sim/receivers/receivers.js';
import { SAAS_RECEIVERS } from '../../sim/receivers/saas-receivers.js';
import type { GenerationEvent } from '../generation-event.js';
import { datadogBody } from './datadog.js';
import { uuidOf } from './event-parts.js';
import { dottedStamp, langsmithRun } from './langsmith.js';
import { posthogEvent } from './posthog.js';

const event: GenerationEvent = {
  id: 'gen-1767225600-abc',
  type: 'generation',
  created_at: '2026-01-01T00:00:00.123Z',
  model: 'openai/gpt-x',
  provider: 'openai',
  upstream_model: 'gpt-x-2026',
  api_type: 'chat',
  status: 'success',
  streamed: true,
  finish_reason: 'stop',
  session_id: null,
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, cached_tokens: 0, reasoning_tokens: 0 },
  latency_ms: 250,
  ttft_ms: 40,
  generation_time_ms: 210,
  error: null,
};
const withContent: GenerationEvent = { ...event, input: [{ role: 'user', content: 'hi' }], output: 'hello' };
const runId = uuidOf(event.id);

describe('LangSmith, PostHog and Datadog records', () => {
  it('derives stable UUIDs and LangSmith’s dotted-order stamp', () => {
    expect(runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidOf(event.id)).toBe(runId);
    expect(uuidOf('gen-other')).not.toBe(runId);
    expect(dottedStamp('2026-01-01T00:00:00.123Z')).toBe('20260101T000000123000Z');
  });

  it('writes a LangSmith run: a finished root llm run, content only when the event carries it', () => {
    expect(langsmithRun(event, 'main')).toEqual({
      id: runId,
      trace_id: runId,
      dotted_order: `20260101T000000123000Z${runId}`,
      name: 'openai/gpt-x',
      run_type: 'llm',
      start_time: '2026-01-01T00:00:00.123Z',
      end_time: '2026-01-01T00:00:00.373Z',
      session_name: 'main',
      inputs: {},
      outputs: { usage_metadata: { input_tokens: 12, output_tokens: 3, total_tokens: 15 } },
      extra: {
        metadata: {
          ls_provider: 'openai',
          ls_model_name: 'gpt-x-2026',
          generation_id: event.id,
          provider: 'openai',
          api_type: 'chat',
          status: 'success',
          finish_reason: 'stop',
        },
      },
    });
    expect(langsmithRun({ ...withContent, cost: { total_cost: 0.5, cache_discount: null } }, 'main')).toMatchObject({
      inputs: { messages: [{ role: 'user', content: 'hi' }] },
      outputs: { choices: [{ message: { role: 'assistant', content: 'hello' } }], usage_metadata: { total_cost: 0.5 } },
    });
  });

  it('writes a PostHog $ai_generation event with the documented properties', () => {
    expect(posthogEvent(event)).toEqual({
      event: '$ai_generation',
      uuid: runId,
      timestamp: '2026-01-01T00:00:00.123Z',
      properties: {
        distinct_id: event.id,
        $process_person_profile: false,
        $ai_trace_id: event.id,
        $ai_span_id: event.id,
        $ai_model: 'gpt-x-2026',
        $ai_provider: 'openai',
        $ai_input_tokens: 12,
        $ai_output_tokens: 3,
        $ai_latency: 0.25,
        $ai_time_to_first_token: 0.04,
        $ai_stream: true,
        $ai_is_error: false,
        model: 'openai/gpt-x',
        provider: 'openai',
        api_type: 'chat',
        status: 'success',
        finish_reason: 'stop',
      },
    });
    const identified = posthogEvent({
      ...withContent,
      identity: { organization_id: 'o', workspace_id: 'w', api_key_hash: 'h', api_key_name: 'k', user: 'u-1' },
    });
    expect(identified.properties).toMatchObject({
      distinct_id: 'u-1',
      $ai_input: [{ role: 'user', content: 'hi' }],
      $ai_output_choices: [{ role: 'assistant', content: 'hello' }],
    });
    expect(identified.properties).not.toHaveProperty('$process_person_profile');
  });

  it('writes Datadog’s span payload byte for byte, start_ns as exact uint64 digits', () => {
    expect(datadogBody('my-app', [event])).toBe(
      '{"data":{"type":"span","attributes":{"ml_app":"my-app","tags":["source:model-gateway"],"spans":[{"parent_id":"undefined",' +
        '"trace_id":"87f7d093a96d7f95564ab3239e73b86b","span_id":"10362064096647584267",' +
        '"name":"chat openai/gpt-x","meta":{"kind":"llm","metadata":{"model_name":"gpt-x-2026","model_provider":"openai",' +
        `"generation_id":"${event.id}","provider":"openai","api_type":"chat","status":"success","finish_reason":"stop"}},` +
        '"duration":250000000,"status":"ok","metrics":{"input_tokens":12,"output_tokens":3,"total_tokens":15,"time_to_first_token":0.04},' +
        '"tags":["model:openai/gpt-x"],"start_ns":1767225600123000000}]}}}',
    );
  });

  it('is accepted by the simulated services, which refuse what the real ones refuse', () => {
    const receivers = newReceivers();
    const now = { ...withContent, created_at: new Date().toISOString() };
    const send = (route: string, headers: Record<string, string>, body: string) =>
      SAAS_RECEIVERS[route]!(headers, JSON.parse(body), body, receivers.received);
    const runs = JSON.stringify({ post: [langsmithRun(now, 'main')], patch: [] });
    expect(send('POST /receivers/langsmith/runs/batch', { 'x-api-key': 'lsv2_pt_1' }, runs).status).toBe(202);
    expect(send('POST /receivers/langsmith/runs/batch', {}, runs).status).toBe(401);
    const tampered = JSON.stringify({ post: [{ ...langsmithRun(now, 'main'), dotted_order: 'x' }] });
    expect(send('POST /receivers/langsmith/runs/batch', { 'x-api-key': 'lsv2_pt_1' }, tampered).status).toBe(422);

    const batch = (key: string) => JSON.stringify({ api_key: key, historical_migration: false, batch: [posthogEvent(now)] });
    expect(send('POST /receivers/posthog/batch/', {}, batch('phc_1'))).toEqual({ status: 200, body: '{"status":1}' });
    expect(send('POST /receivers/posthog/batch/', {}, batch('')).status).toBe(401);

    const spans = datadogBody('my-app', [now]);
    expect(send('POST /receivers/datadog/api/intake/llm-obs/v1/trace/spans', { 'dd-api-key': 'k' }, spans)).toEqual({
      status: 202,
      body: '',
    });
    expect(send('POST /receivers/datadog/api/intake/llm-obs/v1/trace/spans', {}, spans).status).toBe(403);
    expect(
      send('POST /receivers/datadog/api/intake/llm-obs/v1/trace/spans', { 'dd-api-key': 'k' }, datadogBody('my-app', [event])).status,
    ).toBe(400);
    expect(receivers.received.langsmith).toHaveLength(1);
    expect(receivers.received.posthog).toHaveLength(1);
    expect(receivers.received.datadog.map((d) => d.body)).toEqual([spans]);
  });
});
