/**
 * The database cannot be reached right now (restarting, failing over, cut
 * off, or its breaker open after such failures): what needs it answers 503,
 * and the ledger keeps its rows in the outbox until it is back.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** Socket failures of a connection: the server is not there, or the path to it broke. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/**
 * PostgreSQL's SQLSTATE class 08 (connection exception), 57P01-57P03 (the
 * server is shutting down, crashed, or not accepting connections yet) and
 * 53300 (too many connections); SQLite's busy (another process holds the
 * file past busy_timeout), I/O and disk-full results.
 */
const UNAVAILABLE_CODE = /^(08|57P0[123]$|53300$|SQLITE_(BUSY|IOERR|FULL))/;

/** What the pg driver says, without a code, when its connection dies or does not come. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|not queryable|Query read timeout|timeout exceeded when trying to connect|Connection terminated due to connection timeout/i;

/** Whether `error` (or an error it wraps) says the database cannot be reached, rather than that a query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof DatabaseUnavailableError) return true;
    const { code } = cause as { code?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_CODE.test(code))) return true;
    if (UNAVAILABLE_MESSAGE.test(cause.message)) return true;
    // Node reports a refused connection to a name with several addresses as an AggregateError of each.
    if (cause instanceof AggregateError && cause.errors.some((each) => isDatabaseUnavailable(each))) return true;
  }
  return false;
}
