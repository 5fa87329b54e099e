import { setTimeout as sleep } from 'node:timers/promises';
import type { Started } from './processes.js';

/** Polls a URL until it answers 200; fails at once if the server exits, or after `timeoutMs`. */
export async function waitUntilReady(started: Started, url: string, headers: Record<string, string>, timeoutMs = 30_000): Promise<void> {
  let exitCode: number | null | undefined;
  void started.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${started.name} exited (code ${exitCode}) before it was ready`);
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`${started.name} was not ready at ${url} after ${timeoutMs} ms`);
}
