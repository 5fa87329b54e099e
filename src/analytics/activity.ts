import { Errors } from '../http/errors.js';
import { endpointKey } from '../routing/plan-attempts.js';
import type { UsageFilter, UsageQuery, UsageRow } from '../store/repositories/usage-hourly.js';
import { roundUsd } from '../util/round-usd.js';

/** GET /activity covers the last this many completed UTC days (the reference's). */
export const ACTIVITY_DAYS = 30;

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first and last of the last 30 completed UTC days at `now` ('YYYY-MM-DD'): today is not complete. */
export function activityDays(now: Date): { first: string; last: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { first: dayOf(today - ACTIVITY_DAYS * DAY_MS), last: dayOf(today - DAY_MS) };
}

export interface ActivityRequest {
  /** One day of the window, 'YYYY-MM-DD'. */
  date?: string;
  /** Only these keys' activity (a key's hash, or a member's keys). */
  keyHashes?: readonly string[];
  workspaceId?: string;
  /** Rows split per workspace, each naming its workspace_id. */
  byWorkspace: boolean;
}

/** Refuses a `date` that is not a real day of the window: 400 naming the parameter and the window. */
function checkDate(date: string, days: { first: string; last: string }): void {
  const ms = Date.parse(`${date}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !Number.isFinite(ms) || dayOf(ms) !== date) {
    throw Errors.invalidRequest(`query parameter date must be a UTC date written YYYY-MM-DD, not ${JSON.stringify(date)}`);
  }
  if (date < days.first || date > days.last) {
    throw Errors.invalidRequest(
      `query parameter date ${date} is not one of the last ${ACTIVITY_DAYS} completed UTC days (${days.first} to ${days.last})`,
    );
  }
}

/**
 * The rollups query of GET /activity: the organization's usage per UTC day,
 * model and endpoint (model and provider; and workspace when asked) over the
 * last 30 completed days, or one of them.
 */
export function activityQuery(organizationId: string, request: ActivityRequest, now: Date): UsageQuery {
  const days = activityDays(now);
  if (request.date !== undefined) checkDate(request.date, days);
  const first = request.date ?? days.first;
  const last = request.date ?? days.last;
  const filters: UsageFilter[] = [];
  if (request.keyHashes) filters.push({ column: 'api_key_hash', values: request.keyHashes, exclude: false });
  if (request.workspaceId !== undefined) filters.push({ column: 'workspace_id', values: [request.workspaceId], exclude: false });
  const groupBy = request.byWorkspace ? (['model', 'provider_name', 'workspace_id'] as const) : (['model', 'provider_name'] as const);
  return {
    organizationId,
    from: `${first}T00`,
    to: `${dayOf(Date.parse(`${last}T00:00:00.000Z`) + DAY_MS)}T00`,
    bucket: 'day',
    groupBy,
    filters,
    measures: new Map([
      ['usage', { sum: ['cost'] }],
      ['requests', { sum: ['requests'] }],
      ['prompt_tokens', { sum: ['tokens_prompt'] }],
      ['completion_tokens', { sum: ['tokens_completion'] }],
      ['reasoning_tokens', { sum: ['tokens_reasoning'] }],
      ['errors_4xx', { sum: ['errors_4xx'] }],
      ['errors_5xx', { sum: ['errors_5xx'] }],
    ]),
    order: [{ by: 'bucket', descending: false }, ...groupBy.map((column) => ({ by: column, descending: false }))],
    // 30 days of every model, provider and workspace: a bound, not a page.
    limit: 100_000,
  };
}

/**
 * A row in the reference's ActivityItem shape. The gateway's model ids have
 * no dated permaslug, so model_permaslug repeats the model; an endpoint is a
 * model at a provider (`model@provider`, as routing names it); nothing is
 * BYOK. A request no provider served (a refusal among them) has provider_name and endpoint_id "".
 */
export function toActivityItem(row: UsageRow, byWorkspace: boolean) {
  const model = row.model as string;
  const provider = row.provider_name as string;
  return {
    date: row.bucket as string,
    model,
    model_permaslug: model,
    endpoint_id: provider === '' ? '' : endpointKey(model, provider),
    provider_name: provider,
    usage: roundUsd(Number(row.usage)),
    byok_usage_inference: 0,
    requests: Number(row.requests),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    reasoning_tokens: Number(row.reasoning_tokens),
    // Beyond the reference: the requests that failed, by status class (a 4xx refusal, a 5xx failure).
    errors_4xx: Number(row.errors_4xx),
    errors_5xx: Number(row.errors_5xx),
    ...(byWorkspace ? { workspace_id: row.workspace_id as string } : {}),
  };
}
