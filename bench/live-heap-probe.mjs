// Preloaded into the benchmarked gateway (with --expose-gc): on SIGUSR2, a full
// collection, then the live heap and RSS appended as one JSON line to
// $LIVE_HEAP_FILE, so the soak can tell retained memory from heap sizing.
import { appendFileSync } from 'node:fs';

const file = process.env.LIVE_HEAP_FILE;
if (file && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    // Twice: objects freed by the first collection's finalizers go in the second.
    globalThis.gc();
    globalThis.gc();
    const { heapUsed, rss } = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ heapUsedMb: heapUsed / 1_048_576, rssMb: rss / 1_048_576 })}\n`);
  });
}
