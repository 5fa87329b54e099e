import type { PendingEvent } from '../store/repositories/destination-events.js';
import type { DestinationRow } from '../store/repositories/observability-destinations.js';
import type { FilterFacts } from './filter-rules.js';

/** What a destination may receive of a generation, as its flags allow (the reference's broadcast_generation_*). */
export interface BroadcastFlags {
  content: boolean;
  cost: boolean;
  identity: boolean;
  requestContext: boolean;
}

/** A destination's flags: content unless in privacy mode (the workspace's I/O logging is checked where content is read). */
export const broadcastFlags = (
  destination: Pick<
    DestinationRow,
    'privacy_mode' | 'broadcast_generation_cost' | 'broadcast_generation_identity' | 'broadcast_generation_request_context'
  >,
): BroadcastFlags => ({
  content: destination.privacy_mode === 0,
  cost: destination.broadcast_generation_cost === 1,
  identity: destination.broadcast_generation_identity === 1,
  requestContext: destination.broadcast_generation_request_context === 1,
});

/** One generation as every exporter sees it: the webhook's JSON document, and what the other protocols are made from. */
export interface GenerationEvent {
  id: string;
  type: 'generation';
  created_at: string;
  model: string;
  provider: string | null;
  upstream_model: string | null;
  api_type: string;
  status: string;
  streamed: boolean;
  finish_reason: string | null;
  session_id: string | null;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cached_tokens: number; reasoning_tokens: number };
  latency_ms: number | null;
  ttft_ms: number | null;
  generation_time_ms: number | null;
  error: { code: number | null; message: string | null } | null;
  cost?: { total_cost: number; cache_discount: number | null };
  identity?: { organization_id: string; workspace_id: string; api_key_hash: string; api_key_name: string | null; user: string | null };
  request_context?: { request_id: string | null; origin: string | null; user_agent: string | null };
  /** The request's messages (JSON as stored) and the completion: only with I/O logging on and not in privacy mode. */
  input?: unknown;
  output?: string | null;
}

const num = (value: unknown): number => Number(value ?? 0);
const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function parsedInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** The event of a pending outbox row, with what `flags` let through. */
export function generationEvent(pending: PendingEvent, flags: BroadcastFlags): GenerationEvent {
  const g = pending.generation;
  const prompt = num(g.tokens_prompt);
  const completion = num(g.tokens_completion);
  const event: GenerationEvent = {
    id: g.id,
    type: 'generation',
    created_at: g.created_at,
    model: String(g.model),
    provider: str(g.provider_name),
    upstream_model: str(g.upstream_model),
    api_type: String(g.api_type),
    status: String(g.status),
    streamed: num(g.streamed) === 1,
    finish_reason: str(g.finish_reason),
    session_id: str(g.session_id),
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      cached_tokens: num(g.tokens_cached),
      reasoning_tokens: num(g.tokens_reasoning),
    },
    latency_ms: g.latency_ms === null || g.latency_ms === undefined ? null : num(g.latency_ms),
    ttft_ms: g.ttft_ms === null || g.ttft_ms === undefined ? null : num(g.ttft_ms),
    generation_time_ms: g.generation_time_ms === null || g.generation_time_ms === undefined ? null : num(g.generation_time_ms),
    error: g.error_code === null || g.error_code === undefined ? null : { code: num(g.error_code), message: str(g.error_message) },
  };
  if (flags.cost) event.cost = { total_cost: num(g.total_cost), cache_discount: g.cache_discount === null ? null : num(g.cache_discount) };
  if (flags.identity)
    event.identity = {
      organization_id: String(g.organization_id),
      workspace_id: String(g.workspace_id),
      api_key_hash: String(g.api_key_hash),
      api_key_name: pending.api_key_name,
      user: str(g.external_user),
    };
  if (flags.requestContext) event.request_context = { request_id: str(g.request_id), origin: str(g.origin), user_agent: str(g.user_agent) };
  if (flags.content && pending.input !== null) {
    event.input = parsedInput(pending.input);
    event.output = pending.completion;
  }
  return event;
}

/** What the filter rules test of a pending event (content whether or not it is sent). */
export function filterFacts(pending: PendingEvent): FilterFacts {
  const g = pending.generation;
  const facts: FilterFacts = {
    model: String(g.model),
    total_cost: num(g.total_cost),
    prompt_tokens: num(g.tokens_prompt),
    completion_tokens: num(g.tokens_completion),
    total_tokens: num(g.tokens_prompt) + num(g.tokens_completion),
  };
  const optional: [keyof FilterFacts, unknown][] = [
    ['provider', g.provider_name],
    ['session_id', g.session_id],
    ['user_id', g.external_user],
    ['api_key_name', pending.api_key_name],
    ['finish_reason', g.finish_reason],
    ['input', pending.input],
    ['output', pending.completion],
  ];
  for (const [field, value] of optional) if (value !== null && value !== undefined) facts[field] = String(value);
  return facts;
}
