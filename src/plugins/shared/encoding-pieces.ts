/**
 * The longest run, in UTF-8 bytes, that the tokenizer is given whole. Its
 * byte-pair merge takes time growing with the square of a piece's length (a
 * 150 KB word took 15 s), so a longer run of spaces, non-spaces or `\r\n/`
 * is cut into pieces encoded apart, and the merge never sees more than about
 * twice this. The longest token of o200k_base is far shorter: only the tokens
 * at a cut can differ from the whole run's (a token or so more per cut), and
 * text without such a run is encoded exactly as before.
 */
export const LONGEST_ENCODED_PIECE = 512;

/** JavaScript's `\s` past ASCII (the tokenizer's pattern splits on `\s`: a run of it or of anything else is one class). */
function isSpace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** UTF-8 bytes of a UTF-16 unit (a surrogate pair's 4 counted on its first unit). */
function unitBytes(code: number): number {
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) return 4;
  if (code >= 0xdc00 && code <= 0xdfff) return 0;
  return 3;
}

const isAsciiSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);
const isSpaceUnit = (code: number) => (code < 0x80 ? isAsciiSpace(code) : isSpace(code));
const isTail = (code: number) => code === 0x0a || code === 0x0d || code === 0x2f;

/**
 * Aligned windows of this many UTF-16 units: a run of 2 × WINDOW - 1 units
 * or more holds a whole one, and a shorter run cannot reach
 * LONGEST_ENCODED_PIECE (three bytes a unit at most).
 */
const WINDOW = 64;

/** UTF-8 bytes of the run of units `inRun` accepts around `at`. */
function runBytesAround(text: string, at: number, inRun: (code: number) => boolean): number {
  let from = at;
  while (from > 0 && inRun(text.charCodeAt(from - 1))) from--;
  let bytes = 0;
  for (let i = from; i < text.length && inRun(text.charCodeAt(i)); i++) bytes += unitBytes(text.charCodeAt(i));
  return bytes;
}

/** Whether the WINDOW units from `start` are all spaces, all non-spaces or all `\r\n/`, in a run past LONGEST_ENCODED_PIECE. */
function inLongRun(text: string, start: number): boolean {
  const first = text.charCodeAt(start);
  const space = isSpaceUnit(first);
  let sameSpace = true;
  let allTail = isTail(first);
  for (let i = start + 1; i < start + WINDOW; i++) {
    const code = text.charCodeAt(i);
    if (sameSpace && isSpaceUnit(code) !== space) sameSpace = false;
    if (allTail && !isTail(code)) allTail = false;
    if (!sameSpace && !allTail) return false;
  }
  return (
    (sameSpace && runBytesAround(text, start, (code) => isSpaceUnit(code) === space) > LONGEST_ENCODED_PIECE) ||
    (allTail && runBytesAround(text, start, isTail) > LONGEST_ENCODED_PIECE)
  );
}

/**
 * Whether the text holds a run to cut, looking only at aligned windows and
 * at the runs of the uniform ones: prose fails each window within a word or
 * two, so most prompts are read in a small fraction of their characters, and
 * a uniform run (a table's rule, an indentation) is measured once per window
 * it covers, at most LONGEST_ENCODED_PIECE / WINDOW times.
 */
function holdsLongRun(text: string): boolean {
  for (let start = 0; start + WINDOW <= text.length; start += WINDOW) if (inLongRun(text, start)) return true;
  return false;
}

/**
 * The text as the pieces to encode one after another: whole when no run of
 * spaces, of non-spaces or of `\r\n/` passes LONGEST_ENCODED_PIECE bytes
 * (no match of the tokenizer's pattern can then be longer than two such
 * runs), else cut wherever one would. Their concatenation is the text; one
 * pass over it.
 */
export function encodingPieces(text: string): string[] {
  if (!holdsLongRun(text)) return [text];
  const pieces: string[] = [];
  let from = 0;
  let runBytes = 0; // since the current run of spaces or non-spaces began, or the last cut
  let tailBytes = 0; // the same for the current run of `\r\n/`
  let wasSpace = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const size = unitBytes(code);
    const space = isSpaceUnit(code);
    const tail = isTail(code);
    if (space !== wasSpace) runBytes = 0;
    wasSpace = space;
    if (!tail) tailBytes = 0;
    if (size > 0 && (runBytes + size > LONGEST_ENCODED_PIECE || tailBytes + size > LONGEST_ENCODED_PIECE)) {
      pieces.push(text.slice(from, i));
      from = i;
      runBytes = 0;
      tailBytes = 0;
    }
    runBytes += size;
    if (tail) tailBytes += size;
  }
  pieces.push(text.slice(from));
  return pieces;
}
