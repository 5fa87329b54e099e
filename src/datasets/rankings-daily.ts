import type { ModelDay } from '../store/repositories/datasets.js';

export type RankingPeriod = 'day' | 'week' | 'month';

/** How many models each date lists before the `other` row (the reference's). */
export const TOP_MODELS = 50;
/** The reserved model of the row that sums the rest. */
export const OTHER = 'other';

/** The date a day is reported under: itself, its ISO week's Monday, or its month's first day. */
export function periodStart(day: string, period: RankingPeriod): string {
  if (period === 'day') return day;
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

/**
 * The reference's RankingsDailyItem rows: per date (by `period`), the top
 * TOP_MODELS models by tokens (ties by name), then one `other` row with the
 * rest's sum when there is a rest. `keep` narrows the (date, model) rows
 * first (a modality's models, or the rows with a tool call).
 */
export function rankModels(rows: readonly ModelDay[], period: RankingPeriod, keep: (row: { model: string; toolCalls: number }) => boolean) {
  const dates = new Map<string, Map<string, { tokens: number; toolCalls: number }>>();
  for (const row of rows) {
    const date = periodStart(row.day, period);
    let models = dates.get(date);
    if (!models) dates.set(date, (models = new Map()));
    const had = models.get(row.model) ?? { tokens: 0, toolCalls: 0 };
    models.set(row.model, { tokens: had.tokens + row.tokens, toolCalls: had.toolCalls + row.tool_call_requests });
  }
  const out: { date: string; model_permaslug: string; total_tokens: string }[] = [];
  for (const date of [...dates.keys()].sort()) {
    const models = [...dates.get(date)!.entries()]
      .filter(([model, sums]) => keep({ model, toolCalls: sums.toolCalls }))
      .sort(([a, x], [b, y]) => y.tokens - x.tokens || (a < b ? -1 : a > b ? 1 : 0));
    for (const [model, { tokens }] of models.slice(0, TOP_MODELS)) out.push({ date, model_permaslug: model, total_tokens: String(tokens) });
    const rest = models.slice(TOP_MODELS);
    if (rest.length > 0)
      out.push({ date, model_permaslug: OTHER, total_tokens: String(rest.reduce((sum, [, { tokens }]) => sum + tokens, 0)) });
  }
  return out;
}
