import type { Context, Span } from '@opentelemetry/api';

/** What a request's runs added up to, for its metrics, its access-log line and its span. */
export interface RequestFacts {
  /** performance.now() when it arrived. */
  readonly start: number;
  /** Time spent in upstream attempts, a stream's relay included. */
  upstreamMs: number;
  attempts: number;
  /** The model and provider that served its own run (not an inner call's). */
  model?: string;
  provider?: string;
  inputTokens: number;
  outputTokens: number;
  /** All its runs' cost, inner calls' (fusion's panel) included. */
  cost: number;
  /** Its span and the context that makes it the parent of the spans below, when traces are kept. */
  span?: Span;
  context?: Context;
}

export const newFacts = (start: number): RequestFacts => ({ start, upstreamMs: 0, attempts: 0, inputTokens: 0, outputTokens: 0, cost: 0 });

/** An id that more than one request in flight carries (a client's own X-Request-Id sent twice): how many. */
interface Ambiguous {
  holders: number;
}

/**
 * The requests in flight by request id, which every run carries: how a run's figures find their
 * request. Ids are the client's to choose (X-Request-Id): while two requests in flight share one,
 * neither gets the figures of runs (they could be either's), rather than one getting the other's.
 */
export class RequestsInFlight {
  private readonly byId = new Map<string, RequestFacts | Ambiguous>();

  add(id: string, facts: RequestFacts): void {
    const held = this.byId.get(id);
    if (!held) this.byId.set(id, facts);
    else this.byId.set(id, { holders: ('holders' in held ? held.holders : 1) + 1 });
  }

  get(id: string): RequestFacts | undefined {
    const held = this.byId.get(id);
    return held && !('holders' in held) ? held : undefined;
  }

  delete(id: string): void {
    const held = this.byId.get(id);
    if (held && 'holders' in held && held.holders > 1) held.holders--;
    else this.byId.delete(id);
  }

  get size(): number {
    return this.byId.size;
  }
}
