import type { ModerationVerdict } from '../../protocol/adapters.js';
import { isRecord } from '../../util/is-record.js';

/** The verdicts of an OpenAI moderation answer, or undefined when the body is not one (or has the wrong number of results). */
export function convertOpenAIModerationResponse(body: unknown, inputs: number): ModerationVerdict[] | undefined {
  if (!isRecord(body) || !Array.isArray(body.results) || body.results.length !== inputs) return undefined;
  const verdicts: ModerationVerdict[] = [];
  for (const result of body.results) {
    if (!isRecord(result) || typeof result.flagged !== 'boolean' || !isRecord(result.categories)) return undefined;
    const scores = isRecord(result.category_scores) ? result.category_scores : {};
    verdicts.push({
      flagged: result.flagged,
      categories: Object.entries(result.categories).flatMap(([name, on]) => (on === true ? [name] : [])),
      scores: Object.fromEntries(Object.entries(scores).filter((e): e is [string, number] => typeof e[1] === 'number')),
    });
  }
  return verdicts;
}
