import { describe, expect, it } from 'vitest';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { parseGeminiError } from './parse-gemini-error.js';

describe('parseGeminiError', () => {
  it('reads the RetryInfo delay of a quota 429 (google-429-retry-info)', () => {
    expect(parseGeminiError(readFixtureJson('gemini/google-429-retry-info.json'))).toEqual({
      message: 'You exceeded your current quota, please check your plan.',
      code: 'RESOURCE_EXHAUSTED',
      retryAfterMs: 34_400,
    });
  });

  it('reads a 400 without details (google-thinking-level-minimal-unsupported)', () => {
    expect(parseGeminiError(readFixtureJson('gemini/google-thinking-level-minimal-unsupported.json'))).toEqual({
      message: 'Thinking level MINIMAL is not supported for this model. Please retry with other thinking level.',
      code: 'INVALID_ARGUMENT',
    });
  });

  it('reads whole and fractional durations, and skips unreadable ones', () => {
    const withDelay = (retryDelay: unknown) =>
      parseGeminiError({
        error: { code: 429, status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] },
      });
    expect(withDelay('7s').retryAfterMs).toBe(7000);
    expect(withDelay('0.250s').retryAfterMs).toBe(250);
    expect(withDelay('soon').retryAfterMs).toBeUndefined();
    expect(withDelay({ seconds: 3 }).retryAfterMs).toBeUndefined();
  });

  it('is empty for bodies that are not Google errors', () => {
    expect(parseGeminiError('<html>Bad Gateway</html>')).toEqual({});
    expect(parseGeminiError({ error: 'text' })).toEqual({});
    expect(parseGeminiError(undefined)).toEqual({});
  });
});
