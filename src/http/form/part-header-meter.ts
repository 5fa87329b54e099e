const HEADER_END = Buffer.from('\r\n\r\n');
const CLOSE = 0x2d; // '-': a delimiter followed by "--" closes the form

/**
 * A chunk of the body with the few bytes kept from the one before (which a
 * delimiter may straddle), searched as one without copying the chunk.
 */
class Window {
  readonly length: number;

  constructor(
    private readonly carry: Buffer,
    private readonly chunk: Buffer,
  ) {
    this.length = carry.length + chunk.length;
  }

  byte(i: number): number | undefined {
    return i < this.carry.length ? this.carry[i] : this.chunk[i - this.carry.length];
  }

  /** The first `needle` starting at or after `from` and ending by `to`, or -1. */
  indexOf(needle: Buffer, from: number, to = this.length): number {
    const { carry, chunk } = this;
    if (from < carry.length) {
      // A match that starts in the carry ends within the chunk's first needle.length - 1 bytes.
      const joint = Buffer.concat([carry, chunk.subarray(0, needle.length - 1)]).subarray(0, to);
      const found = joint.indexOf(needle, from);
      if (found >= 0) return found;
      from = carry.length;
    }
    if (to - carry.length < needle.length) return -1;
    const found = chunk.subarray(0, to - carry.length).indexOf(needle, from - carry.length);
    return found < 0 ? -1 : found + carry.length;
  }

  /** The bytes from `from` on, copied (a delimiter's length at most, kept for the next chunk). */
  rest(from: number): Buffer {
    return Buffer.concat([this.carry.subarray(from), this.chunk.subarray(Math.max(0, from - this.carry.length))]);
  }
}

/**
 * Measures the header block of each part of a multipart body as it streams
 * by, since busboy cuts a part's headers at its limit silently instead of
 * refusing them. It finds parts as busboy does: a part starts after each
 * CRLF "--" boundary (the body's first boundary needs no CRLF), and its
 * headers run from there to the first blank line (or the next boundary);
 * after the closing boundary ("--" again) nothing is measured. It copies no
 * chunk and holds no more than a delimiter's length of the body between pushes.
 */
export class PartHeaderMeter {
  private readonly delimiter: Buffer;
  private state: 'body' | 'boundary' | 'headers' | 'closed' = 'body';
  private headerBytes = 0;
  /** The bytes a delimiter or the headers' end may straddle, looked at again with the next chunk (first, the CRLF before the first boundary). */
  private carry: Buffer = Buffer.from('\r\n');

  constructor(
    boundary: string,
    private readonly maxHeaderBytes: number,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** Takes the next chunk of the body: false once a part's headers are longer than the limit. */
  push(chunk: Buffer): boolean {
    if (this.state === 'closed') return true;
    const data = new Window(this.carry, chunk);
    // Whatever is nearer the end than a whole delimiter may be the start of one: kept for the next chunk.
    const safe = data.length - (this.delimiter.length - 1);
    let at = 0;
    for (;;) {
      if (this.state === 'body') {
        const found = data.indexOf(this.delimiter, at);
        if (found < 0) {
          at = Math.max(at, safe);
          break;
        }
        at = found + this.delimiter.length;
        this.state = 'boundary';
      }
      if (this.state === 'boundary') {
        if (data.length - at < 2) break;
        if (data.byte(at) === CLOSE && data.byte(at + 1) === CLOSE) {
          this.state = 'closed';
          this.carry = Buffer.alloc(0);
          return true;
        }
        this.state = 'headers';
        this.headerBytes = 0;
      }
      // Headers end where a boundary cuts them short, or at a blank line (none can overlap it: a boundary has no CR
      // or LF past its own first CRLF). The blank line's second CRLF may begin a boundary, as busboy finds
      // boundaries before it reads headers: the body is searched from there.
      const blank = data.indexOf(HEADER_END, at);
      const cut = data.indexOf(this.delimiter, at, blank < 0 ? data.length : blank);
      const end = cut >= 0 ? cut : blank >= 0 ? blank + HEADER_END.length : -1;
      if (end < 0) {
        const measured = Math.max(at, safe);
        this.headerBytes += measured - at;
        at = measured;
        break;
      }
      this.headerBytes += end - at;
      if (this.headerBytes > this.maxHeaderBytes) return false;
      at = cut >= 0 ? cut + this.delimiter.length : blank + 2;
      this.state = cut >= 0 ? 'boundary' : 'body';
    }
    this.carry = data.rest(at);
    return this.headerBytes <= this.maxHeaderBytes || this.state !== 'headers';
  }
}
