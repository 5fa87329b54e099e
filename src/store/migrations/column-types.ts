// Column types that mean the same on SQLite and PostgreSQL; see store/schema.ts.
export const TEXT = 'text';
export const INT = 'integer';
/** USD. */
export const MONEY = 'double precision';
/** A count or a sum of counts that may pass 2^31 (tokens over an hour of a busy organization). */
export const COUNT = 'bigint';
