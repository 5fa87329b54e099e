import { type RawBuilder, sql } from 'kysely';

/** A page of rows in creation order (ties by id), after a row already listed: the files' and the containers' lists. */
export interface CreationOrderPage {
  limit: number;
  order: 'asc' | 'desc';
  /** The row to list after, in `order`. */
  after?: { id: string; created_at: string };
}

/** The rows after `after` in (created_at, id) order: keyset paging, one index range whatever the page's depth. */
export function afterInCreationOrder(
  after: NonNullable<CreationOrderPage['after']>,
  order: CreationOrderPage['order'],
): RawBuilder<boolean> {
  const cmp = sql.raw(order === 'asc' ? '>' : '<');
  return sql<boolean>`(created_at ${cmp} ${after.created_at} or (created_at = ${after.created_at} and id ${cmp} ${after.id}))`;
}
