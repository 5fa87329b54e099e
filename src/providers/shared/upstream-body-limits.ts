/** How much of an upstream's answer the gateway holds in memory (docs/operations.md, "Limits and timeouts"). */
export interface UpstreamBodyLimits {
  /** A whole non-streamed answer, or one event of a stream, in bytes; past it the answer is refused. */
  maxAnswerBytes: number;
  /** What is read and kept of an error body (a non-2xx answer, an error event, a malformed answer), in bytes. */
  maxErrorBytes: number;
}

export const DEFAULT_UPSTREAM_BODY_LIMITS: UpstreamBodyLimits = {
  maxAnswerBytes: 32 * 1024 * 1024,
  maxErrorBytes: 8 * 1024,
};

let processLimits: UpstreamBodyLimits = DEFAULT_UPSTREAM_BODY_LIMITS;

/**
 * The limits every upstream call of the process reads. Process-wide, as the
 * connection pools are: they bound the process's memory, and each upstream
 * call of every flow (chat, rerank, videos, moderation, web search) reads
 * them without being handed them. Set once at start (buildApp).
 */
export function setUpstreamBodyLimits(limits: UpstreamBodyLimits): void {
  processLimits = limits;
}

export function upstreamBodyLimits(): UpstreamBodyLimits {
  return processLimits;
}

/** At most `max` characters of an upstream's text, saying how much was left out. */
export function excerpt(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters not kept)`;
}
