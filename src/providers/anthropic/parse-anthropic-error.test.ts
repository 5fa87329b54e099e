import { describe, expect, it } from 'vitest';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { parseAnthropicError } from './parse-anthropic-error.js';

describe('parseAnthropicError', () => {
  it('reads anthropic-issue-17366-error: an orphan tool_result refused as invalid_request_error', () => {
    expect(parseAnthropicError(readFixtureJson('anthropic/anthropic-issue-17366-error.json'))).toEqual({
      message: expect.stringMatching(/^messages\.2\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks/),
      code: 'invalid_request_error',
    });
  });

  it('reads the error event of a stream the same way', () => {
    expect(parseAnthropicError({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toEqual({
      message: 'Overloaded',
      code: 'overloaded_error',
    });
  });

  it('knows nothing of other bodies', () => {
    expect(parseAnthropicError('<html>502 Bad Gateway</html>')).toEqual({});
    expect(parseAnthropicError({ error: 'text' })).toEqual({});
    expect(parseAnthropicError(undefined)).toEqual({});
  });
});
