import { describe, expect, it } from 'vitest';
import { jsonOption } from './api-rules.js';
import { cell, formatTable, usd } from './output.js';

describe('command output', () => {
  it('aligns columns to their widest cell, nulls as "-", without trailing spaces', () => {
    expect(
      formatTable(
        ['HASH', 'NAME', 'LIMIT'],
        [
          ['ab', 'a long name', 5],
          ['abcdef', null, null],
        ],
      ),
    ).toBe(['HASH    NAME         LIMIT', 'ab      a long name  5', 'abcdef  -            -', ''].join('\n'));
  });

  it('shows control characters of a name escaped, so that no name breaks a table or drives the terminal', () => {
    expect(cell('two\nlines')).toBe('two\\nlines');
    expect(cell('\u001b[2Jcleared')).toBe('\\u001b[2Jcleared');
    expect(cell({ a: 1 })).toBe('{"a":1}');
  });

  it('prints amounts without floating-point noise', () => {
    expect(usd(0.1 + 0.2)).toBe('0.3');
    expect(usd(7.5)).toBe('7.5');
    expect(usd(null)).toBe(null);
  });

  it('reads an option as the JSON value the API would be sent', () => {
    expect(jsonOption('none')).toBe(null);
    expect(jsonOption('2.5')).toBe(2.5);
    expect(jsonOption('-3')).toBe(-3);
    // Not JSON numbers: left as text for the schema to refuse, as the API refuses "5." or "0x10" in a body.
    expect(jsonOption('5.')).toBe('5.');
    expect(jsonOption('0x10')).toBe('0x10');
    expect(jsonOption('')).toBe('');
  });
});
