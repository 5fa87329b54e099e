// Column types that mean the same on SQLite and PostgreSQL; see store/schema.ts.
export const TEXT = 'text';
export const INT = 'integer';
/** USD. */
export const MONEY = 'double precision';
