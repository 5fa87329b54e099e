import type { Dispatcher } from 'undici';

/**
 * How long the upstream asks us to wait, in milliseconds: `retry-after-ms`
 * (OpenAI's precise hint) wins over `Retry-After`, which is either delay
 * seconds or an HTTP date (RFC 9110 §10.2.3). Undefined when absent or
 * unreadable; a date in the past means "now" (0).
 */
export function parseRetryAfterMs(headers: Dispatcher.ResponseData['headers'], now: number = Date.now()): number | undefined {
  const milliseconds = nonNegativeNumber(first(headers['retry-after-ms']));
  if (milliseconds !== undefined) return milliseconds;

  const value = first(headers['retry-after'])?.trim();
  if (!value) return undefined;
  const seconds = nonNegativeNumber(value);
  if (seconds !== undefined) return seconds * 1000;
  // HTTP dates always name the month; without this, Date.parse reads "-3" as a year.
  if (!/[a-z]/i.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function nonNegativeNumber(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
