import type { SessionCostCell, TurnRange } from '../store/repositories/datasets.js';
import { addEncoded, type CostSketch, emptySketch, sketchMedian } from './cost-sketch.js';

export const TURN_RANGES: readonly TurnRange[] = ['1-turn', '2-9-turns', '10-49-turns', '50-plus-turns'];
/** The days of sessions the medians are taken over, ending with the last completed UTC day. */
export const SESSION_WINDOW_DAYS = 30;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The reference's SessionCostItem rows, by app, model, then turn range from the fewest turns; a page of them. */
export function sessionCostItems(cells: readonly SessionCostCell[], page: { offset: number; limit: number }) {
  return [...cells]
    .sort(
      (a, b) => byText(a.app, b.app) || byText(a.model, b.model) || TURN_RANGES.indexOf(a.turn_range) - TURN_RANGES.indexOf(b.turn_range),
    )
    .slice(page.offset, page.offset + page.limit)
    .map((cell) => ({
      app_slug: cell.app,
      app_name: cell.app_name,
      model_permaslug: cell.model,
      turn_range: cell.turn_range,
      median_session_cost_usd: cell.median,
    }));
}

/**
 * The cells of the folded rows (session_cost_daily's, of any days and
 * workspaces): per app, model and turn range, the merged sketches' median
 * and the greatest app name.
 */
export function sessionCostCells(
  rows: readonly { app: string; app_name: string; model: string; turn_range: string; costs: string }[],
): SessionCostCell[] {
  const cells = new Map<string, { app: string; app_name: string; model: string; turn_range: TurnRange; sketch: CostSketch }>();
  for (const row of rows) {
    const key = `${row.app}\u0000${row.model}\u0000${row.turn_range}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = { app: row.app, app_name: row.app_name, model: row.model, turn_range: row.turn_range as TurnRange, sketch: emptySketch() };
      cells.set(key, cell);
    }
    addEncoded(cell.sketch, row.costs);
    if (row.app_name > cell.app_name) cell.app_name = row.app_name;
  }
  return [...cells.values()].flatMap(({ sketch, ...cell }) => {
    const median = sketchMedian(sketch);
    return median === undefined ? [] : [{ ...cell, median }];
  });
}
