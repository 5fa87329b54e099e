import type { SafeFetcher } from '../net/safe-fetch.js';
import type { DestinationRow } from '../store/repositories/observability-destinations.js';
import { randomSlice } from '../util/ids.js';
import { type ConfigBox, openConfig } from './destination-record.js';
import { isSupportedType } from './destination-types.js';
import { EXPORTERS } from './exporters/exporters.js';
import { type BroadcastFlags, broadcastFlags, type GenerationEvent } from './generation-event.js';

/** A made-up generation, marked as a test, with what the destination's flags let through. */
export function testEvent(now: Date, flags: BroadcastFlags): GenerationEvent {
  const event: GenerationEvent = {
    id: `gen-test-${Math.floor(now.getTime() / 1000)}-${randomSlice(6).toString('hex')}`,
    type: 'generation',
    created_at: now.toISOString(),
    model: 'model-gateway/test',
    provider: 'model-gateway',
    upstream_model: 'test',
    api_type: 'chat',
    status: 'success',
    streamed: false,
    finish_reason: 'stop',
    session_id: null,
    usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10, cached_tokens: 0, reasoning_tokens: 0 },
    latency_ms: 100,
    ttft_ms: null,
    generation_time_ms: 100,
    error: null,
  };
  if (flags.cost) event.cost = { total_cost: 0, cache_discount: null };
  if (flags.content) {
    event.input = [{ role: 'user', content: 'A test event from model-gateway.' }];
    event.output = 'Received.';
  }
  return event;
}

export interface TestOutcome {
  generation_id: string;
  delivered: boolean;
  /** Each answer the receiver gave (status and the first bytes of its body). */
  answers: { url: string; status: number; body: string }[];
  error: string | null;
}

/**
 * Sends one test event to a destination now, as its exporter sends
 * generations (same protocol, same SSRF-safe fetcher), bypassing the outbox:
 * what the receiver answered is the outcome.
 */
export async function sendTestEvent(
  services: { box: ConfigBox; fetcher: SafeFetcher; timeoutMs: number },
  destination: DestinationRow,
  now: Date,
): Promise<TestOutcome> {
  const event = testEvent(now, broadcastFlags(destination));
  const answers: TestOutcome['answers'] = [];
  if (!isSupportedType(destination.type))
    return { generation_id: event.id, delivered: false, answers, error: `type ${destination.type} has no exporter` };
  try {
    await EXPORTERS[destination.type](
      openConfig(services.box, destination),
      [event],
      { fetcher: services.fetcher, timeoutMs: services.timeoutMs, answered: (answer) => answers.push(answer) },
      () => undefined,
    );
    return { generation_id: event.id, delivered: true, answers, error: null };
  } catch (error) {
    return { generation_id: event.id, delivered: false, answers, error: error instanceof Error ? error.message : String(error) };
  }
}
