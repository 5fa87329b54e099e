/** Plain-text columns: the first left-aligned, the rest right-aligned (numbers line up). */
export function table(rows: string[][], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
  }
  return rows
    .map(
      (row) =>
        indent +
        row
          .map((cell, i) => {
            const pad = ' '.repeat((widths[i] ?? 0) - [...cell].length);
            return i === 0 ? cell + pad : pad + cell;
          })
          .join('   ')
          .trimEnd(),
    )
    .join('\n');
}
