import { FOLD_DELAY_MS } from '../accounting/usage-day-folds.js';
import type { Store } from '../store/database.js';
import type { TurnRange } from '../store/repositories/datasets.js';
import {
  dailySessionCosts,
  type FoldState,
  organizationsWithSessions,
  pruneSessionCosts,
  refoldSessionDay,
  replaceSessionCostWindow,
  type SessionCostRow,
  type SessionPart,
  sessionFoldStates,
  sessionPartsByDay,
  sessionWindowEnd,
} from '../store/repositories/session-cost-folds.js';
import type { Clock } from '../util/clock.js';
import { PeriodicTask } from '../util/periodic-task.js';
import { addCost, addEncoded, type CostSketch, emptySketch, encodeSketch } from './cost-sketch.js';
import { addDays } from './date-window.js';
import { SESSION_WINDOW_DAYS } from './session-cost.js';

const FOLD_EVERY_MS = 600_000;

export const turnRange = (turns: number): TurnRange =>
  turns === 1 ? '1-turn' : turns < 10 ? '2-9-turns' : turns < 50 ? '10-49-turns' : '50-plus-turns';

/**
 * A day's session parts as session_cost_daily's rows: per workspace, app,
 * model and turn range, the sessions, their greatest app name and a sketch
 * of their costs. Parts with no turn served or no app are in none.
 */
export function foldSessionParts(parts: readonly SessionPart[]): SessionCostRow[] {
  const cells = new Map<string, SessionCostRow & { sketch: ReturnType<typeof emptySketch> }>();
  for (const part of parts) {
    if (part.turns <= 0 || part.app === '') continue;
    const turn_range = turnRange(part.turns);
    const key = [part.workspace_id, part.app, part.model, turn_range].join('\u0000');
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        workspace_id: part.workspace_id,
        app: part.app,
        model: part.model,
        turn_range,
        app_name: part.app_name,
        sessions: 0,
        costs: '',
        sketch: emptySketch(),
      };
      cells.set(key, cell);
    }
    cell.sessions += 1;
    if (part.app_name > cell.app_name) cell.app_name = part.app_name;
    addCost(cell.sketch, part.cost);
  }
  return [...cells.values()].map(({ sketch, ...row }) => ({ ...row, costs: encodeSketch(sketch) }));
}

/**
 * The window's daily folds merged per workspace, app, model and turn range
 * (session_cost_window's rows): sessions added, sketches merged, the greatest
 * app name kept.
 */
export function mergeSessionDays(days: readonly SessionCostRow[]): SessionCostRow[] {
  const cells = new Map<string, SessionCostRow & { sketch: CostSketch }>();
  for (const day of days) {
    const key = [day.workspace_id, day.app, day.model, day.turn_range].join('\u0000');
    let cell = cells.get(key);
    if (!cell) {
      cell = { ...day, sessions: 0, costs: '', sketch: emptySketch() };
      cells.set(key, cell);
    }
    cell.sessions += Number(day.sessions);
    if (day.app_name > cell.app_name) cell.app_name = day.app_name;
    addEncoded(cell.sketch, day.costs);
  }
  return [...cells.values()].map(({ sketch, ...row }) => ({ ...row, costs: encodeSketch(sketch) }));
}

const dayEnd = (day: string) => Date.parse(`${addDays(day, 1)}T00:00:00.000Z`);

/**
 * The days of the window to fold (again): those whose count of session parts
 * is not the one folded (a session went on to a later day, or a late row
 * started one), and those folded before late rows could land in them
 * (FOLD_DELAY_MS after the day's end), once that time has passed.
 */
export function daysToFold(days: readonly string[], parts: ReadonlyMap<string, number>, states: ReadonlyMap<string, FoldState>, now: Date) {
  return days.filter((day) => {
    const state = states.get(day);
    const count = parts.get(day) ?? 0;
    if (!state) return count > 0;
    if (state.parts !== count) return true;
    const settled = dayEnd(day) + FOLD_DELAY_MS;
    return Date.parse(state.folded_at) < settled && now.getTime() >= settled;
  });
}

/** The session-cost window's days up to yesterday, oldest first. */
function windowDays(now: Date): string[] {
  const end = addDays(now.toISOString().slice(0, 10), -1);
  return Array.from({ length: SESSION_WINDOW_DAYS }, (_, i) => addDays(end, i + 1 - SESSION_WINDOW_DAYS));
}

/**
 * Brings session_cost_daily up to date with session_usage for the window
 * GET /datasets/session-cost reads, organization by organization, forgets
 * the days before it, and merges the window's days into session_cost_window
 * when one changed or the window moved on. Returns how many days were folded.
 */
export async function foldSessionCosts(store: Pick<Store, 'db'>, now: Date, signal?: AbortSignal): Promise<number> {
  const days = windowDays(now);
  const [start, end] = [days[0]!, days.at(-1)!];
  let folded = 0;
  for (const organization of await organizationsWithSessions(store.db)) {
    const [parts, states] = await Promise.all([
      sessionPartsByDay(store.db, organization, start, end),
      sessionFoldStates(store.db, organization, start, end),
    ]);
    const changed = daysToFold(days, parts, states, now);
    for (const day of changed) {
      if (signal?.aborted) return folded;
      await refoldSessionDay(store.db, organization, day, now, foldSessionParts);
      folded++;
    }
    await pruneSessionCosts(store.db, organization, start);
    if (changed.length > 0 || (await sessionWindowEnd(store.db, organization)) !== end)
      await replaceSessionCostWindow(
        store.db,
        organization,
        end,
        mergeSessionDays(await dailySessionCosts(store.db, organization, start, end)),
      );
  }
  return folded;
}

/** The fold, every ten minutes off the request path while the server runs (any instance may: they take turns per day). */
export const sessionCostFolder = (store: Pick<Store, 'db'>, clock: Clock, onError: (error: unknown) => void) =>
  new PeriodicTask(async (signal) => void (await foldSessionCosts(store, clock(), signal)), { everyMs: FOLD_EVERY_MS, onError });
