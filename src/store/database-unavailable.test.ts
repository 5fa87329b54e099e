import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './database-unavailable.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows a server that is not there, a connection that died, and a database that cannot take the work now', () => {
    for (const error of [
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      withCode('SQLITE_BUSY', 'database is locked'),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
      new Error('a wrapper', { cause: withCode('ECONNRESET') }),
      new DatabaseUnavailableError('breaker open'),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  it('does not take a wrong query for an outage', () => {
    for (const error of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('42P01', 'relation "nope" does not exist'),
      withCode('SQLITE_CONSTRAINT_PRIMARYKEY'),
      new TypeError('x is undefined'),
      'a string',
      undefined,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});
