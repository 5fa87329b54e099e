import { describe, expect, it } from 'vitest';
import { appIdentity, appNumber } from '../store/app-identity.js';
import { priorWindow, rankApps } from './app-rankings.js';
import { dayWindow } from './date-window.js';
import { OTHER, periodStart, rankModels, TOP_MODELS } from './rankings-daily.js';

const now = new Date('2026-11-22T12:00:00.000Z');

describe('dayWindow', () => {
  it('defaults to the 30 days before the last completed UTC day, and moves a start before the floor to it', () => {
    expect(dayWindow({}, now)).toEqual({ start: '2026-10-22', end: '2026-11-21' });
    expect(dayWindow({ start_date: '2024-06-01', end_date: '2025-01-10' }, now)).toEqual({ start: '2025-01-01', end: '2025-01-10' });
  });
  it.each([
    [{ end_date: '2026-11-23' }, 'end_date 2026-11-23 is past the kept data'],
    [{ end_date: '2024-12-31' }, 'end_date must be on or after 2025-01-01'],
    [{ start_date: '2026-02-29' }, 'start_date must be a calendar date'],
    [{ start_date: '2026-11-10', end_date: '2026-11-09' }, 'start_date 2026-11-10 must be on or before end_date'],
  ])('refuses %j', (query, message) => {
    expect(() => dayWindow(query, now)).toThrow(message);
  });
});

describe('appIdentity', () => {
  it('is the referer’s host, named by the title; the title alone without one; nothing with neither', () => {
    expect(appIdentity('https://Chat.Example.com:8443/a/b', 'My App')).toEqual({ slug: 'chat-example-com-8443', name: 'My App' });
    expect(appIdentity('https://chat.example.com/other', null)).toEqual({ slug: 'chat-example-com', name: 'chat.example.com' });
    expect(appIdentity('not a url', ' Tool ')).toEqual({ slug: 'tool', name: 'Tool' });
    expect(appIdentity(null, '  ')).toBeNull();
    expect(appNumber('chat-example-com')).toBe(appNumber('chat-example-com'));
    expect(Number.isSafeInteger(appNumber('x'))).toBe(true);
  });
});

const sums = (app: string, tokens: number, last_day = '2026-11-20', app_name = app) => ({ app, app_name, last_day, requests: 1, tokens });

describe('rankApps', () => {
  it('ranks by tokens with absolute ranks after the offset, merging an app’s names into its latest', () => {
    const rows = [sums('a', 10), sums('b', 30, '2026-11-01', 'Old B'), sums('b', 5, '2026-11-21', 'New B'), sums('c', 20)];
    expect(rankApps(rows, undefined, { offset: 0, limit: 10 }).map((r) => [r.rank, r.app_slug, r.app_name, r.total_tokens])).toEqual([
      [1, 'b', 'New B', '35'],
      [2, 'c', 'c', '20'],
      [3, 'a', 'a', '10'],
    ]);
    expect(rankApps(rows, undefined, { offset: 1, limit: 1 }).map((r) => r.rank)).toEqual([2]);
  });
  it('trends by growth over the mean of the three periods before, leaving out those that did not grow', () => {
    const window = [sums('a', 10), sums('b', 30), sums('c', 5)];
    const prior = [sums('a', 3), sums('b', 120), sums('c', 15)];
    expect(rankApps(window, prior, { offset: 0, limit: 10 }).map((r) => r.app_slug)).toEqual(['a']);
    expect(priorWindow({ start: '2026-11-20', end: '2026-11-21' })).toEqual({ start: '2026-11-14', end: '2026-11-19' });
  });
});

describe('rankModels', () => {
  it('keeps the top models of each date and sums the rest into a last `other` row', () => {
    const rows = Array.from({ length: TOP_MODELS + 2 }, (_, i) => ({
      day: '2026-11-20',
      model: `m/${i}`,
      tokens: i + 1,
      tool_call_requests: 0,
    }));
    const ranked = rankModels(rows, 'day', () => true);
    expect(ranked).toHaveLength(TOP_MODELS + 1);
    expect(ranked[0]).toEqual({ date: '2026-11-20', model_permaslug: `m/${TOP_MODELS + 1}`, total_tokens: String(TOP_MODELS + 2) });
    expect(ranked.at(-1)).toEqual({ date: '2026-11-20', model_permaslug: OTHER, total_tokens: '3' });
  });
  it('dates a week by its Monday and a month by its first day', () => {
    expect(periodStart('2026-11-22', 'week')).toBe('2026-11-16');
    expect(periodStart('2026-11-16', 'week')).toBe('2026-11-16');
    expect(periodStart('2026-11-22', 'month')).toBe('2026-11-01');
  });
});
