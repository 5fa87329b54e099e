import type { UpstreamRerank } from '../../protocol/rerank.js';
import { isRecord } from '../../util/is-record.js';
import { readCount, readRerankScores } from '../shared/read-rerank-scores.js';

/** Scores, id and billed search units of a v2 answer; undefined when it holds no ranking. */
export function convertCohereRerankResponse(body: unknown): UpstreamRerank | undefined {
  if (!isRecord(body) || !Array.isArray(body.results)) return undefined;
  const scores = readRerankScores(body.results);
  if (!scores) return undefined;
  const billed = isRecord(body.meta) && isRecord(body.meta.billed_units) ? body.meta.billed_units : {};
  const searchUnits = readCount(billed.search_units);
  return {
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
    scores,
    usage: searchUnits !== undefined ? { search_units: searchUnits } : {},
  };
}
