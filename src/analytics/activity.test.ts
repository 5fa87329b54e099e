import { describe, expect, it } from 'vitest';
import { activityDays, activityQuery, toActivityItem } from './activity.js';

const now = new Date('2026-03-01T00:30:00.000Z');

describe('activity', () => {
  it('covers the last 30 completed UTC days: today is not one of them', () => {
    expect(activityDays(now)).toEqual({ first: '2026-01-30', last: '2026-02-28' });
    expect(activityDays(new Date('2026-03-01T23:59:59.999Z'))).toEqual({ first: '2026-01-30', last: '2026-02-28' });
  });

  it('asks the rollups for the whole window, or one day of it, by day, model and provider', () => {
    expect(activityQuery('org', { byWorkspace: false }, now)).toMatchObject({
      from: '2026-01-30T00',
      to: '2026-03-01T00',
      bucket: 'day',
      groupBy: ['model', 'provider_name'],
      filters: [],
    });
    expect(activityQuery('org', { date: '2026-02-28', keyHashes: ['h'], workspaceId: 'w', byWorkspace: true }, now)).toMatchObject({
      from: '2026-02-28T00',
      to: '2026-03-01T00',
      groupBy: ['model', 'provider_name', 'workspace_id'],
      filters: [
        { column: 'api_key_hash', values: ['h'], exclude: false },
        { column: 'workspace_id', values: ['w'], exclude: false },
      ],
    });
  });

  it('refuses a day that does not exist or is outside the window, naming the parameter', () => {
    expect(() => activityQuery('org', { date: '2026-02-29', byWorkspace: false }, now)).toThrow(
      'query parameter date must be a UTC date written YYYY-MM-DD, not "2026-02-29"',
    );
    expect(() => activityQuery('org', { date: '2026-03-01', byWorkspace: false }, now)).toThrow(
      'query parameter date 2026-03-01 is not one of the last 30 completed UTC days (2026-01-30 to 2026-02-28)',
    );
    expect(() => activityQuery('org', { date: '2026-01-29', byWorkspace: false }, now)).toThrow(
      'is not one of the last 30 completed UTC days',
    );
  });

  it('names an endpoint as routing does, and leaves both empty for a request no provider served', () => {
    const row = {
      bucket: '2026-02-28',
      model: 'acme/fast',
      provider_name: 'acme',
      usage: 0.1 + 0.2,
      requests: 3,
      prompt_tokens: 1,
      completion_tokens: 2,
      reasoning_tokens: 0,
    };
    expect(toActivityItem(row, false)).toMatchObject({
      endpoint_id: 'acme/fast@acme',
      model_permaslug: 'acme/fast',
      usage: 0.3,
      byok_usage_inference: 0,
    });
    expect(toActivityItem({ ...row, provider_name: '' }, false)).toMatchObject({ endpoint_id: '', provider_name: '' });
  });
});
