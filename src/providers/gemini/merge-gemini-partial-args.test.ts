import { describe, expect, it } from 'vitest';
import { mergeGeminiPartialArgs } from './merge-gemini-partial-args.js';

describe('mergeGeminiPartialArgs', () => {
  it('joins the pieces of a string, as in google-stream-no-args-tool-call', () => {
    let args = mergeGeminiPartialArgs({}, [{ jsonPath: '$.id', stringValue: 'A', willContinue: true }]);
    args = mergeGeminiPartialArgs(args, [{ jsonPath: '$.id', stringValue: '' }]);
    expect(args).toEqual({ id: 'A' });
    expect(mergeGeminiPartialArgs({ city: 'San ' }, [{ jsonPath: '$.city', stringValue: 'Francisco' }])).toEqual({ city: 'San Francisco' });
  });

  it('sets numbers, booleans and nulls whole, creating objects and arrays on the way', () => {
    expect(
      mergeGeminiPartialArgs({}, [
        { jsonPath: '$.where.lat', numberValue: 37.7 },
        { jsonPath: '$.tags[1]', stringValue: 'b' },
        { jsonPath: "$['dry run']", boolValue: true },
        { jsonPath: '$["note"]', nullValue: 'NULL_VALUE' },
      ]),
    ).toEqual({ where: { lat: 37.7 }, tags: [undefined, 'b'], 'dry run': true, note: null });
  });

  it('leaves its input alone and skips pieces it cannot read', () => {
    const args = { id: 'A' };
    const merged = mergeGeminiPartialArgs(args, [
      { jsonPath: '$.id', stringValue: 'B' },
      { jsonPath: 'id', stringValue: 'x' },
      { jsonPath: '$..deep', stringValue: 'x' },
      { jsonPath: '$.empty' },
    ]);
    expect(merged).toEqual({ id: 'AB' });
    expect(args).toEqual({ id: 'A' });
  });
});
