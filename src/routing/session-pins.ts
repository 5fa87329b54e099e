import { LRUCache } from 'lru-cache';

/**
 * Which provider served a session first, so that the session's later requests
 * go there too (spec 2.1 session_id). Scoped by organization: two customers'
 * equal session ids are different sessions.
 */
export class SessionPins {
  private readonly pins: LRUCache<string, string>;

  constructor(options: { max?: number; ttlMs?: number } = {}) {
    this.pins = new LRUCache({ max: options.max ?? 100_000, ttl: options.ttlMs ?? 60 * 60 * 1000, updateAgeOnGet: true });
  }

  get(organizationId: string, sessionId: string): string | undefined {
    return this.pins.get(`${organizationId}\u0000${sessionId}`);
  }

  /** Pins on first success only: a fallback does not move an existing pin. */
  pinIfAbsent(organizationId: string, sessionId: string, provider: string): void {
    const key = `${organizationId}\u0000${sessionId}`;
    if (!this.pins.has(key)) this.pins.set(key, provider);
  }
}
