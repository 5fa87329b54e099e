// Copies the recorded provider traffic (src/providers/*/__fixtures__) into dist/, where the
// simulator of the built package replays it from; tsc copies only what it compiles.
import { cpSync, readdirSync } from 'node:fs';

const from = new URL('../src/providers/', import.meta.url);
const to = new URL('../dist/providers/', import.meta.url);
for (const entry of readdirSync(from, { withFileTypes: true })) {
  const recordings = new URL(`${entry.name}/__fixtures__/`, from);
  if (entry.isDirectory() && readdirSync(new URL(`${entry.name}/`, from)).includes('__fixtures__')) {
    cpSync(recordings, new URL(`${entry.name}/__fixtures__/`, to), { recursive: true });
  }
}
