import type { CompiledQuery, Kysely } from 'kysely';
import { sql } from 'kysely';
import { appIdentity } from '../store/app-identity.js';
import { compiledOnce } from '../store/compiled-once.js';
import type { Database, GenerationRecord } from '../store/schema.js';

type DatasetRow = Pick<
  GenerationRecord,
  | 'organization_id'
  | 'workspace_id'
  | 'model'
  | 'session_id'
  | 'origin'
  | 'app_title'
  | 'status'
  | 'finish_reason'
  | 'created_at'
  | 'total_cost'
  | 'tokens_prompt'
  | 'tokens_completion'
>;

const added = (table: string, names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, sql`${sql.ref(`${table}.${name}`)} + ${sql.ref(`excluded.${name}`)}`]));

const DAY_KEY = ['organization_id', 'day', 'workspace_id', 'app', 'model'] as const;
const DAY_SUMS = ['requests', 'tokens', 'tool_call_requests'] as const;
// The latest stated name wins: an app renamed shows its new name.
const addToAppDay = compiledOnce('app-usage-daily-upsert', [...DAY_KEY, 'app_name', ...DAY_SUMS], (db, v) =>
  db
    .insertInto('app_usage_daily')
    .values(v)
    .onConflict((conflict) =>
      conflict.columns([...DAY_KEY]).doUpdateSet({ ...added('app_usage_daily', DAY_SUMS), app_name: sql.ref('excluded.app_name') }),
    ),
);

const SESSION_KEY = ['organization_id', 'workspace_id', 'session_id', 'app', 'model'] as const;
const addToSession = compiledOnce('session-usage-upsert', [...SESSION_KEY, 'app_name', 'turns', 'cost', 'last_day'], (db, v) =>
  db
    .insertInto('session_usage')
    .values(v)
    .onConflict((conflict) =>
      conflict.columns([...SESSION_KEY]).doUpdateSet({
        ...added('session_usage', ['turns', 'cost']),
        app_name: sql.ref('excluded.app_name'),
        last_day: sql`case when excluded.last_day > session_usage.last_day then excluded.last_day else session_usage.last_day end`,
      }),
    ),
);

interface DaySums {
  organization_id: string;
  day: string;
  workspace_id: string;
  app: string;
  model: string;
  app_name: string;
  requests: number;
  tokens: number;
  tool_call_requests: number;
}

interface SessionSums {
  organization_id: string;
  workspace_id: string;
  session_id: string;
  app: string;
  model: string;
  app_name: string;
  turns: number;
  cost: number;
  last_day: string;
}

function bucket<V>(buckets: Map<string, V>, key: readonly string[], make: () => V): V {
  const id = key.join('\u0000');
  let found = buckets.get(id);
  if (!found) buckets.set(id, (found = make()));
  return found;
}

/**
 * The upserts that add a batch of ledger rows to the datasets' rollups
 * (migration 0041), in the batch's transaction as usage-rollup.ts's: one per
 * (organization, day, workspace, app, model) the rows fall in, and one per
 * session part (a row with a session_id, by app and model).
 */
export function datasetRollupStatements(db: Kysely<Database>, rows: readonly DatasetRow[]): CompiledQuery[] {
  const days = new Map<string, DaySums>();
  const sessions = new Map<string, SessionSums>();
  for (const row of rows) {
    const app = appIdentity(row.origin, row.app_title);
    const slug = app?.slug ?? '';
    const app_name = app?.name ?? '';
    const day = row.created_at.slice(0, 10);
    const sums = bucket(days, [row.organization_id, day, row.workspace_id, slug, row.model], () => ({
      organization_id: row.organization_id,
      day,
      workspace_id: row.workspace_id,
      app: slug,
      model: row.model,
      app_name,
      requests: 0,
      tokens: 0,
      tool_call_requests: 0,
    }));
    sums.requests += 1;
    sums.tokens += (row.tokens_prompt ?? 0) + (row.tokens_completion ?? 0);
    if (row.finish_reason === 'tool_calls') sums.tool_call_requests += 1;
    if (app_name) sums.app_name = app_name;
    const sessionId = row.session_id;
    if (sessionId == null) continue;
    const session = bucket(sessions, [row.organization_id, row.workspace_id, sessionId, slug, row.model], () => ({
      organization_id: row.organization_id,
      workspace_id: row.workspace_id,
      session_id: sessionId,
      app: slug,
      model: row.model,
      app_name,
      turns: 0,
      cost: 0,
      last_day: day,
    }));
    if (row.status === 'success') session.turns += 1;
    session.cost += row.total_cost ?? 0;
    if (day > session.last_day) session.last_day = day;
  }
  return [
    ...[...days.values()].map((values) => addToAppDay(db, { ...values })),
    ...[...sessions.values()].map((values) => addToSession(db, { ...values })),
  ];
}
