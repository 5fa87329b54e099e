import { appNumber } from '../store/app-identity.js';
import type { AppSums } from '../store/repositories/datasets.js';
import { addDays, type DayWindow, daysIn } from './date-window.js';

/** How many equal periods before the window `trending` compares it with (the reference's). */
export const TRENDING_PERIODS = 3;

/** The days `trending` compares the window with: the TRENDING_PERIODS periods of its length just before it. */
export function priorWindow(window: DayWindow): DayWindow {
  return { start: addDays(window.start, -TRENDING_PERIODS * daysIn(window)), end: addDays(window.start, -1) };
}

interface App {
  slug: string;
  name: string;
  requests: number;
  tokens: number;
}

/** The apps of rows that may hold several names per app: sums added, the name of the latest day kept. */
function merged(rows: readonly AppSums[]): Map<string, App & { nameDay: string }> {
  const apps = new Map<string, App & { nameDay: string }>();
  for (const row of rows) {
    const had = apps.get(row.app);
    if (!had) {
      apps.set(row.app, { slug: row.app, name: row.app_name, nameDay: row.last_day, requests: row.requests, tokens: row.tokens });
      continue;
    }
    had.requests += row.requests;
    had.tokens += row.tokens;
    if (row.last_day > had.nameDay) Object.assign(had, { name: row.app_name, nameDay: row.last_day });
  }
  return apps;
}

/**
 * The reference's AppRankingsItem rows: `popular` by tokens in the window,
 * `trending` by tokens in the window less the mean of the prior periods'
 * (apps that did not grow left out); ties by slug. Ranks are absolute, so
 * the first row after `offset` apps is rank offset + 1.
 */
export function rankApps(window: readonly AppSums[], prior: readonly AppSums[] | undefined, page: { offset: number; limit: number }) {
  const apps = [...merged(window).values()];
  const before = prior ? merged(prior) : undefined;
  const score = (app: App) => (before ? app.tokens - (before.get(app.slug)?.tokens ?? 0) / TRENDING_PERIODS : app.tokens);
  const ranked = apps
    .filter((app) => score(app) > 0)
    .sort((a, b) => score(b) - score(a) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return ranked.slice(page.offset, page.offset + page.limit).map((app, i) => ({
    rank: page.offset + i + 1,
    app_id: appNumber(app.slug),
    app_name: app.name,
    app_slug: app.slug,
    total_tokens: String(app.tokens),
    total_requests: app.requests,
  }));
}
