import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { organizationReach, type Reach, reachClause } from '../reach.js';
import type { Database, InternStatus, InternsTable } from '../schema.js';

export type InternRow = Selectable<InternsTable>;
export type NewIntern = Insertable<InternsTable>;
export type InternPatch = Omit<Updateable<InternsTable>, 'id' | 'organization_id' | 'created_at'>;

export async function isEnrolled(db: Kysely<Database>, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('intern_programme')
    .select('organization_id')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Idempotent: enrolling twice keeps the first enrolment time. */
export async function enroll(db: Kysely<Database>, organizationId: string, now: string): Promise<void> {
  await db
    .insertInto('intern_programme')
    .values({ organization_id: organizationId, enrolled_at: now })
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
}

/** True when the organization was enrolled. Its interns stay, unreachable until it enrols again. */
export async function unenroll(db: Kysely<Database>, organizationId: string): Promise<boolean> {
  const result = await db.deleteFrom('intern_programme').where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertIntern(db: Kysely<Database>, intern: NewIntern): Promise<void> {
  await db.insertInto('interns').values(intern).execute();
}

/** An intern in reach; another organization's, or another workspace's for a reach of one, is absent. */
export function findIntern(db: Kysely<Database>, reach: Reach, id: string): Promise<InternRow | undefined> {
  return db
    .selectFrom('interns')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .executeTakeFirst();
}

export interface InternPageQuery {
  limit: number;
  statuses?: readonly InternStatus[];
  workspaceId?: string;
  /** The (created_at, id) of the last row of the previous page. */
  after?: { createdAt: string; id: string };
}

/** Newest first; one row more than `limit` is read to tell whether another page follows. */
export async function listInterns(
  db: Kysely<Database>,
  organizationId: string,
  query: InternPageQuery,
): Promise<{ rows: InternRow[]; hasMore: boolean }> {
  let q = db.selectFrom('interns').selectAll().where('organization_id', '=', organizationId);
  if (query.workspaceId !== undefined) q = q.where('workspace_id', '=', query.workspaceId);
  if (query.statuses && query.statuses.length > 0) q = q.where('status', 'in', query.statuses);
  const after = query.after;
  if (after) {
    q = q.where((eb) =>
      eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
    );
  }
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}

export async function updateIntern(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  patch: InternPatch,
): Promise<InternRow | undefined> {
  await db.updateTable('interns').set(patch).where('id', '=', id).where('organization_id', '=', organizationId).execute();
  return findIntern(db, organizationReach(organizationId), id);
}
