import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartHeaderMeter } from './part-header-meter.js';

const LIMIT = 64;

/** The body pushed in pieces cut at `cuts`: whether the meter took it. */
function meter(body: Buffer, cuts: number[] = [], limit = LIMIT): boolean {
  const meterOf = new PartHeaderMeter('xy', limit);
  const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  let ok = true;
  for (const to of [...points, body.length]) {
    ok = meterOf.push(body.subarray(from, to)) && ok;
    from = to;
    if (!ok) break;
  }
  return ok;
}

/**
 * The longest header block of the body read whole, the plain way: after each CRLF "--xy", up to the first boundary
 * or blank line, whichever is first; after a blank line, the next boundary may begin with its second CRLF.
 */
function longestHeaders(body: Buffer): number {
  const text = `\r\n${body.toString('latin1')}`;
  let longest = 0;
  let at = text.indexOf('\r\n--xy');
  while (at >= 0) {
    const start = at + 6;
    if (text.startsWith('--', start)) break;
    const next = text.indexOf('\r\n--xy', start);
    const blank = text.indexOf('\r\n\r\n', start);
    if (blank >= 0 && (next < 0 || blank < next)) {
      longest = Math.max(longest, blank + 4 - start);
      at = text.indexOf('\r\n--xy', blank + 2);
    } else {
      longest = Math.max(longest, (next < 0 ? text.length : next) - start);
      at = next;
    }
  }
  return longest;
}

const form = (...parts: string[]) => Buffer.from(`${parts.map((p) => `--xy\r\n${p}\r\n`).join('')}--xy--\r\n`);
const field = (headers: string, value = 'v') => `Content-Disposition: form-data; name="f"${headers}\r\n\r\n${value}`;

describe('PartHeaderMeter', () => {
  it('takes parts whose headers are within the limit, whatever their content', () => {
    expect(meter(form(field(''), field('', 'x'.repeat(10_000))))).toBe(true);
    expect(meter(form(field('', `\r\n\r\n${'h'.repeat(500)}`)))).toBe(true);
  });

  it('refuses a part whose headers run past the limit, before their end has come', () => {
    expect(meter(form(field(''), field(`\r\nX-Pad: ${'p'.repeat(LIMIT)}`)))).toBe(false);
    const meterOf = new PartHeaderMeter('xy', LIMIT);
    expect(meterOf.push(Buffer.from(`--xy\r\nX-Pad: ${'p'.repeat(LIMIT)}`))).toBe(false);
  });

  it('takes a boundary that starts inside a blank line as the next part, as busboy does', () => {
    // "A: 1\r\n" then "\r\n--xy": the blank line's second CRLF begins a boundary, and the part after it is measured.
    expect(meter(Buffer.from(`--xy\r\nA: 1\r\n\r\n--xy\r\nX: ${'p'.repeat(LIMIT)}\r\n\r\nv\r\n--xy--`))).toBe(false);
    expect(meter(Buffer.from(`--xy\r\nA: 1\r\n\r\n--xy\r\nX: p\r\n\r\nv\r\n--xy--`))).toBe(true);
  });

  it('measures nothing after the closing boundary, nor in the preamble', () => {
    expect(meter(Buffer.from(`${'preamble '.repeat(50)}\r\n${form(field('')).toString()}${'epilogue '.repeat(50)}`))).toBe(true);
  });

  it('gives the verdict of the body read whole, however it is cut into chunks', () => {
    // Parts of random bytes that make boundaries, blank lines and near misses of both; header blocks past 24 bytes as often as not.
    const bytes = fc.string({ unit: fc.constantFrom('a', 'b', '\r', '\n', '-', 'x', 'y'), maxLength: 40, size: 'max' });
    const part = fc.record({ head: bytes, blank: fc.boolean(), content: bytes });
    fc.assert(
      fc.property(bytes, fc.array(part, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 10 }), (preamble, parts, cuts) => {
        // Closed at the end, as a whole form is: a header block still open at the end of a cut body is not measured.
        const text = `${preamble}${parts.map((p) => `\r\n--xy${p.head}${p.blank ? '\r\n\r\n' : ''}${p.content}`).join('')}\r\n--xy--`;
        const body = Buffer.from(text, 'latin1');
        expect(meter(body, cuts, 24)).toBe(longestHeaders(body) <= 24);
      }),
      { numRuns: 1_000 },
    );
  });
});
