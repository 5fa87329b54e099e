import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChannelClosedError, type ChildHandle, InternChannel } from './intern-process.js';

const handlers = { onCall: async () => undefined, onDone: () => undefined };

describe('InternChannel', () => {
  it('rejects a request to a process that died before the parent noticed (EPIPE), instead of raising it on the gateway', async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'mg-epipe-')), 'exit.cjs');
    writeFileSync(script, 'process.exit(0);\n');
    const child = fork(script, [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] }) as ChildHandle;
    const channel = new InternChannel(child, handlers);
    // Block this thread while the child exits, so the parent has not yet seen its channel close.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    expect(channel.open).toBe(true);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await expect(channel.request({ type: 'stop', runId: 'r' }, 5_000)).rejects.toBeInstanceOf(ChannelClosedError);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
