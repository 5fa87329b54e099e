import type { Dispatcher } from 'undici';
import type { HttpTarget } from './load-types.js';

/** The undici request for a target: the same bytes every time, so both routes do identical work per request. */
export const requestOptions = (target: HttpTarget): Dispatcher.RequestOptions => ({
  path: target.path,
  method: 'POST',
  headers: { authorization: target.authorization, 'content-type': 'application/json' },
  body: target.body,
});

/** Long enough never to fire in a healthy run; a stuck request becomes an error instead of a hung benchmark. */
export const POOL_TIMEOUTS = { headersTimeout: 30_000, bodyTimeout: 30_000, keepAliveTimeout: 30_000 };
