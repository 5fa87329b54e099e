import type { UpstreamRerank } from '../../protocol/rerank.js';
import { isRecord } from '../../util/is-record.js';
import { readCount, readRerankScores } from '../shared/read-rerank-scores.js';

/**
 * Scores and token usage of a Jina-style answer, read leniently across the
 * hosts that copy it: `results` (Jina, Together, vLLM) or `data` (Voyage);
 * `usage.total_tokens`, or `prompt_tokens` where that is all a host reports.
 * Undefined when it holds no ranking.
 */
export function convertJinaRerankResponse(body: unknown): UpstreamRerank | undefined {
  if (!isRecord(body)) return undefined;
  const items = Array.isArray(body.results) ? body.results : Array.isArray(body.data) ? body.data : undefined;
  const scores = items && readRerankScores(items);
  if (!scores) return undefined;
  const usage = isRecord(body.usage) ? body.usage : {};
  const tokens = readCount(usage.total_tokens) ?? readCount(usage.prompt_tokens);
  return {
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
    scores,
    usage: tokens !== undefined ? { total_tokens: tokens } : {},
  };
}
