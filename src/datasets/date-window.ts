import { Errors } from '../http/errors.js';

/** The first day the datasets cover, as the reference's: an earlier start_date is moved to it, an earlier end_date refused. */
export const DATASETS_FLOOR = '2025-01-01';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A resolved window of whole UTC days, both ends inclusive, 'YYYY-MM-DD'. */
export interface DayWindow {
  start: string;
  end: string;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string => dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
/** Days from `start` to `end`, both counted. */
export const daysIn = (window: DayWindow): number => Math.round((Date.parse(window.end) - Date.parse(window.start)) / DAY_MS) + 1;

/** A real calendar day ('2025-02-30' is not one); the schema checked its pattern. */
function checkDay(field: string, value: string): string {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || dayOf(ms) !== value) throw Errors.invalidRequest(`${field} must be a calendar date YYYY-MM-DD, not ${value}`);
  return value;
}

/**
 * The window a dataset reads (the reference's start_date and end_date): the
 * end defaults to the last completed UTC day, the start to 30 days before
 * the end. The ledger keeps nothing after today, so a later end is refused,
 * as is an end before the floor or a start after the end.
 */
export function dayWindow(query: { start_date?: string | undefined; end_date?: string | undefined }, now: Date): DayWindow {
  const today = dayOf(now.getTime());
  const end = query.end_date !== undefined ? checkDay('end_date', query.end_date) : addDays(today, -1);
  if (end < DATASETS_FLOOR) throw Errors.invalidRequest(`end_date must be on or after ${DATASETS_FLOOR}, not ${end}`);
  if (end > today) throw Errors.invalidRequest(`end_date ${end} is past the kept data: the latest day is today, ${today}`);
  const asked = query.start_date !== undefined ? checkDay('start_date', query.start_date) : addDays(end, -30);
  const start = asked < DATASETS_FLOOR ? DATASETS_FLOOR : asked;
  if (start > end) throw Errors.invalidRequest(`start_date ${start} must be on or before end_date ${end}`);
  return { start, end };
}

/** The meta every dataset answers with (the reference's RankingsDailyMeta). */
export const windowMeta = (window: DayWindow, now: Date) => ({
  as_of: now.toISOString(),
  version: 'v1' as const,
  start_date: window.start,
  end_date: window.end,
});
