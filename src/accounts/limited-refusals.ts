/**
 * Which of a key's 429s the ledger records: the first of each rate-limit
 * window. A flood past a key's limit then writes one row a window, however
 * fast it comes: the key's own limit bounds what it can make the gateway
 * write. Per instance, as the refusals themselves are.
 */
export class LimitedRefusals {
  /** Each limited key's hash → when (epoch ms) its current window ends. */
  private readonly until = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    /** Past this many keys, those whose window is over are forgotten. */
    private readonly sweepAt = 10_000,
  ) {}

  /** Whether this 429 of the key is recorded; `retryAfterSeconds` is when its window ends. */
  admit(keyHash: string, retryAfterSeconds: number): boolean {
    const now = this.now();
    const until = this.until.get(keyHash);
    if (until !== undefined && now < until) return false;
    if (this.until.size >= this.sweepAt) for (const [hash, end] of this.until) if (end <= now) this.until.delete(hash);
    this.until.set(keyHash, now + retryAfterSeconds * 1000);
    return true;
  }
}
