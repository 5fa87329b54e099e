import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, VideoJobsTable } from '../schema.js';

export type VideoJobRow = Selectable<VideoJobsTable>;
export type NewVideoJob = Insertable<VideoJobsTable>;

const RUNNING = ['pending', 'in_progress'] as const;

export async function insertVideoJob(db: Kysely<Database>, job: NewVideoJob): Promise<void> {
  await db.insertInto('video_jobs').values(job).execute();
}

/** The reservations of the running jobs of these keys, or of every key of an organization (what a spend account holds for videos in the making). */
export function runningJobReservations(
  db: Kysely<Database>,
  whose: { keyHashes: readonly string[] } | { workspaceId: string } | { organizationId: string },
): Promise<{ id: string; reserved_usd: number; reserved_until: string }[]> {
  if ('keyHashes' in whose && whose.keyHashes.length === 0) return Promise.resolve([]);
  const jobs = db.selectFrom('video_jobs').select(['id', 'reserved_usd', 'reserved_until']);
  return (
    'keyHashes' in whose
      ? jobs.where('api_key_hash', 'in', whose.keyHashes)
      : 'workspaceId' in whose
        ? jobs.where('workspace_id', '=', whose.workspaceId)
        : jobs.where('organization_id', '=', whose.organizationId)
  )
    .where('status', 'in', RUNNING)
    .where('reserved_usd', 'is not', null)
    .where('reserved_until', 'is not', null)
    .$narrowType<{ reserved_usd: number; reserved_until: string }>()
    .execute();
}

/** A job as its organization sees it; another organization's job does not exist. */
export function findVideoJob(db: Kysely<Database>, id: string, organizationId: string): Promise<VideoJobRow | undefined> {
  return db.selectFrom('video_jobs').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
}

/**
 * Leases up to `limit` due jobs to `token` until `leaseUntil`. One UPDATE
 * whose WHERE re-checks the lease is atomic on both engines (PostgreSQL
 * re-evaluates it on a row another transaction just changed; SQLite has one
 * writer), so two instances never hold the same job, and a lease left by a
 * dead instance lapses by itself.
 */
export async function claimDueVideoJobs(
  db: Kysely<Database>,
  { token, now, leaseUntil, limit }: { token: string; now: Date; leaseUntil: Date; limit: number },
): Promise<VideoJobRow[]> {
  const nowIso = now.toISOString();
  const due = db
    .selectFrom('video_jobs')
    .select('id')
    .where('status', 'in', RUNNING)
    .where('next_poll_at', '<=', nowIso)
    .where('claimed_until', '<=', nowIso)
    .orderBy('next_poll_at')
    .limit(limit);
  await db
    .updateTable('video_jobs')
    .set({ claimed_until: leaseUntil.toISOString(), claim_token: token })
    .where('id', 'in', due)
    .where('claimed_until', '<=', nowIso)
    .where('status', 'in', RUNNING)
    .execute();
  return db
    .selectFrom('video_jobs')
    .selectAll()
    .where('claim_token', '=', token)
    .where('claimed_until', '=', leaseUntil.toISOString())
    .execute();
}

/** Gives a lease back unchanged (the instance is stopping mid-poll), so another instance polls the job at once. */
export async function releaseVideoJob(db: Kysely<Database>, { id, token, now }: { id: string; token: string; now: Date }): Promise<void> {
  await db
    .updateTable('video_jobs')
    .set({ claimed_until: now.toISOString(), claim_token: null })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
}

/** A job moved to the next planned endpoint: its provider, upstream model, credential and the endpoints left after it. */
export type JobRoute = Pick<VideoJobRow, 'provider' | 'upstream_model' | 'credential_id' | 'fallbacks'>;

/** The columns a poll changes. */
export type VideoJobChange = Pick<VideoJobRow, 'status' | 'upstream_id' | 'error' | 'failures' | 'next_poll_at'> & {
  seconds?: number | null;
  outputs?: number;
};

/**
 * Stores a poll's result (with the job's cost once it is charged) and
 * releases the lease, only while `token` still holds it; false when the
 * lease was lost. Run in the transaction that writes the job's ledger row
 * (videos/settle-video-job.ts), so that a job whose lease lapsed and that
 * another instance polled too is charged once.
 */
export async function updateLeasedVideoJob(
  db: Kysely<Database>,
  {
    id,
    token,
    change,
    cost,
    route,
    now,
  }: { id: string; token: string; change: VideoJobChange; cost?: number; route?: JobRoute; now: Date },
): Promise<boolean> {
  const nowIso = now.toISOString();
  const result = await db
    .updateTable('video_jobs')
    .set({
      status: change.status,
      upstream_id: change.upstream_id,
      error: change.error,
      failures: change.failures,
      next_poll_at: change.next_poll_at,
      ...(change.seconds !== undefined ? { seconds: change.seconds } : {}),
      ...(change.outputs !== undefined ? { outputs: change.outputs } : {}),
      ...(cost !== undefined ? { cost } : {}),
      ...route,
      claimed_until: nowIso,
      claim_token: null,
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .where('status', 'in', RUNNING)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
