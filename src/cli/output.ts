// What commands print: aligned tables and field lists for people, JSON for scripts (--json).

// Names and other fields come from API callers: control characters (a newline, a terminal escape) are shown escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** One value as a table cell: null as "-", objects as compact JSON. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return CONTROL.test(text) ? JSON.stringify(text).slice(1, -1) : text;
}

/** Rows under a header, each column as wide as its widest cell. */
export function formatTable(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = [header, ...rows.map((row) => row.map(cell))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return `${cells
    .map((row) =>
      row
        .map((text, i) => text.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

/** A record's fields, one per line: `name  value`. */
export function formatFields(record: Readonly<Record<string, unknown>>): string {
  return formatTable(['FIELD', 'VALUE'], Object.entries(record));
}

export const formatJson = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** An amount of USD without floating-point noise: 7.5 → "7.5", 0.1 + 0.2 → "0.3". */
export const usd = (amount: number | null): string | null => (amount === null ? null : String(Number(amount.toFixed(9))));
