const HEADER_END = Buffer.from('\r\n\r\n');
const CLOSE = 0x2d; // '-': a delimiter followed by "--" closes the form

/**
 * Measures the header block of each part of a multipart body as it streams
 * by, since busboy cuts a part's headers at its limit silently instead of
 * refusing them. It finds parts as busboy does: a part starts after each
 * CRLF "--" boundary (the body's first boundary needs no CRLF), and its
 * headers run from there to the first blank line (or the next boundary);
 * after the closing boundary ("--" again) nothing is measured. It holds no
 * more than a delimiter's length of the body between pushes.
 */
export class PartHeaderMeter {
  private readonly delimiter: Buffer;
  private state: 'body' | 'boundary' | 'headers' | 'closed' = 'body';
  private headerBytes = 0;
  /** The bytes a delimiter or the headers' end may straddle, looked at again with the next chunk (first, the CRLF before the first boundary). */
  private carry = Buffer.from('\r\n');

  constructor(
    boundary: string,
    private readonly maxHeaderBytes: number,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** Takes the next chunk of the body: false once a part's headers are longer than the limit. */
  push(chunk: Buffer): boolean {
    if (this.state === 'closed') return true;
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
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
        if (data[at] === CLOSE && data[at + 1] === CLOSE) {
          this.state = 'closed';
          this.carry = Buffer.alloc(0);
          return true;
        }
        this.state = 'headers';
        this.headerBytes = 0;
      }
      // Headers end at a blank line, or where a boundary cuts them short.
      const blank = data.indexOf(HEADER_END, at);
      const cut = data.indexOf(this.delimiter, at);
      const end = blank >= 0 && (cut < 0 || blank < cut) ? blank + HEADER_END.length : cut;
      if (end < 0) {
        const measured = Math.max(at, safe);
        this.headerBytes += measured - at;
        at = measured;
        break;
      }
      this.headerBytes += end - at;
      if (this.headerBytes > this.maxHeaderBytes) return false;
      at = end === cut ? cut + this.delimiter.length : end;
      this.state = end === cut ? 'boundary' : 'body';
    }
    this.carry = Buffer.from(data.subarray(at));
    return this.headerBytes <= this.maxHeaderBytes || this.state !== 'headers';
  }
}
