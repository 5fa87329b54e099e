import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { InternRunEvent, InternRuntime } from '../../src/interns/intern-runtime.js';
import type { Database } from '../../src/store/schema.js';

/** An intern row as the API would create it (queued), with its settings, and one invoke session for the key. */
export async function seedIntern(
  db: Kysely<Database>,
  {
    organizationId,
    workspaceId,
    apiKeyHash,
    model,
    settings,
    instructions = null,
  }: {
    organizationId: string;
    workspaceId: string;
    apiKeyHash: string;
    model: string;
    settings: Record<string, unknown>;
    instructions?: string | null;
  },
): Promise<{ internId: string; sessionId: string }> {
  const internId = `intern_${randomBytes(6).toString('hex')}`;
  const sessionId = `isess_${randomBytes(6).toString('hex')}`;
  const now = new Date().toISOString();
  await db
    .insertInto('interns')
    .values({
      id: internId,
      organization_id: organizationId,
      workspace_id: workspaceId,
      name: 'test intern',
      description: null,
      instructions,
      model,
      status: 'queued',
      progress: null,
      last_failure_message: null,
      vault_id: null,
      settings: JSON.stringify(settings),
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('intern_sessions')
    .values({
      id: sessionId,
      intern_id: internId,
      organization_id: organizationId,
      api_key_hash: apiKeyHash,
      origin: 'invoke',
      created_at: now,
    })
    .execute();
  return { internId, sessionId };
}

export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const internStatus = (db: Kysely<Database>, id: string) =>
  db.selectFrom('interns').select(['status', 'progress', 'last_failure_message']).where('id', '=', id).executeTakeFirst();

/** Every event of a run until its end (or the time limit). */
export async function collectEvents(runtime: InternRuntime, runId: string, timeoutMs = 20_000): Promise<InternRunEvent[]> {
  const events: InternRunEvent[] = [];
  for await (const event of runtime.events(runId, AbortSignal.timeout(timeoutMs))) events.push(event);
  return events;
}

export const stepKinds = (events: readonly InternRunEvent[]) => events.flatMap((event) => (event.type === 'step' ? [event.kind] : []));

/** Steps of a run as stored, in order. */
export const storedSteps = (db: Kysely<Database>, runId: string) =>
  db.selectFrom('intern_run_steps').select(['seq', 'kind', 'content']).where('run_id', '=', runId).orderBy('seq').execute();

/** Waits until the run has recorded a step of this kind. */
export const untilStep = (db: Kysely<Database>, runId: string, kind: string) =>
  waitFor(
    () => storedSteps(db, runId),
    (steps) => steps.some((step) => step.kind === kind),
    `a ${kind} step of ${runId}`,
  );

export const runRow = (db: Kysely<Database>, runId: string) =>
  db.selectFrom('intern_runs').selectAll().where('id', '=', runId).executeTakeFirst();
