import { Errors } from './errors.js';

const UTC_SUFFIX = /(?:Z|\+00:00)$/i;

/**
 * An ISO 8601 timestamp that must be in UTC (`Z` or `+00:00`; any other
 * offset is refused), normalised to `toISOString()` form.
 */
export function parseUtcTimestamp(field: string, value: string): string {
  const ms = Date.parse(value);
  if (!UTC_SUFFIX.test(value) || Number.isNaN(ms)) {
    throw Errors.invalidRequest(`${field} must be an ISO 8601 timestamp in UTC (ending in Z or +00:00); other timezones are rejected`);
  }
  return new Date(ms).toISOString();
}
