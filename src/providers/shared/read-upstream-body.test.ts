import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../protocol/upstream.js';
import { parseStreamEventJson } from './read-upstream-body.js';
import { DEFAULT_UPSTREAM_BODY_LIMITS, excerpt } from './upstream-body-limits.js';

const parser = (body: unknown) => ((body as { error?: { message?: string } }).error?.message ? { message: 'boom', code: 'E' } : {});

describe('parseStreamEventJson', () => {
  it('returns the JSON object of an event', () => {
    expect(parseStreamEventJson('{"candidates":[]}', parser)).toEqual({ candidates: [] });
  });

  it('throws malformed for an event that is not a JSON object', () => {
    for (const data of ['{"candidates": [', '[1]', '"text"']) {
      expect(() => parseStreamEventJson(data, parser)).toThrow(expect.objectContaining({ failure: 'malformed', details: { body: data } }));
    }
  });

  it('throws a mid-stream status failure for an error event', () => {
    let thrown: unknown;
    try {
      parseStreamEventJson('{"error":{"message":"x"}}', parser);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UpstreamError);
    expect(thrown).toMatchObject({ failure: 'status', message: 'upstream failed mid-stream: boom', details: { providerCode: 'E' } });
  });

  it('keeps only an excerpt of a bad event or of an error event’s message', () => {
    const limit = DEFAULT_UPSTREAM_BODY_LIMITS.maxErrorBytes;
    const bad = `{"candidates": [${'1,'.repeat(limit)}`;
    expect(() => parseStreamEventJson(bad, parser)).toThrow(expect.objectContaining({ details: { body: excerpt(bad, limit) } }));
    const huge = JSON.stringify({ error: { message: 'm'.repeat(limit * 3) } });
    let thrown: UpstreamError | undefined;
    try {
      parseStreamEventJson(huge, (body) => ({ message: (body as { error: { message: string } }).error.message }));
    } catch (error) {
      thrown = error as UpstreamError;
    }
    expect(thrown?.details.body).toBe(excerpt(huge, limit));
    expect(thrown?.message).toBe(`upstream failed mid-stream: ${excerpt('m'.repeat(limit * 3), limit)}`);
  });
});
