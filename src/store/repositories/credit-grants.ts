import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CreditGrantsTable, Database } from '../schema.js';

export type CreditGrantRow = Selectable<CreditGrantsTable>;

/** Records a grant (grants are never changed afterwards). */
export async function insertCreditGrant(db: Kysely<Database>, grant: Insertable<CreditGrantsTable>): Promise<CreditGrantRow> {
  return db.insertInto('credit_grants').values(grant).returningAll().executeTakeFirstOrThrow();
}

/** The sum of an organization's grants, or null when it was never granted any (then it has no credit balance to check). */
export async function totalCredits(db: Kysely<Database>, organizationId: string): Promise<number | null> {
  const row = await db
    .selectFrom('credit_grants')
    .select((eb) => [eb.fn.countAll<number>().as('grants'), eb.fn.sum<number>('amount_usd').as('total')])
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.grants) === 0 ? null : Number(row.total);
}

/** A page of an organization's grants, newest first, and how many there are. */
export async function listCreditGrants(
  db: Kysely<Database>,
  organizationId: string,
  offset: number,
  limit: number,
): Promise<{ grants: CreditGrantRow[]; total: number }> {
  const base = db.selectFrom('credit_grants').where('organization_id', '=', organizationId);
  const [grants, count] = await Promise.all([
    base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { grants, total: Number(count.n) };
}
