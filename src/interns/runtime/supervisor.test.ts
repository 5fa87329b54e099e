import { spawn } from 'node:child_process';
import { ConstantBackoff } from 'cockatiel';
import { afterEach, describe, expect, it } from 'vitest';
import { forkIntern, type SpawnIntern } from './intern-process.js';
import { Supervisor, type SupervisorHandlers } from './supervisor.js';

/** Events of the supervisor as a list the test waits on. */
function recorder() {
  const events: string[] = [];
  let wake: (() => void) | undefined;
  const handlers: SupervisorHandlers = {
    onCall: async () => undefined,
    onDone: () => undefined,
    onReady: (id) => {
      events.push(`ready ${id}`);
      wake?.();
    },
    onCrash: (id, info) => {
      events.push(`crash ${id} ${info.signal} ${info.restartInMs}`);
      wake?.();
    },
  };
  const until = async (predicate: () => boolean, ms = 15_000) => {
    const end = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > end) throw new Error(`timed out; events: ${events.join(', ')}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  };
  return { events, handlers, until };
}

describe('Supervisor (real child processes)', () => {
  let supervisor: Supervisor | undefined;
  afterEach(async () => supervisor?.stopAll());

  it('starts a process that answers, restarts it after a crash with the backoff delay, and does not restart one it stopped', async () => {
    const r = recorder();
    const pids: number[] = [];
    const counted: SpawnIntern = (id) => {
      const child = forkIntern(id);
      if (child.pid) pids.push(child.pid);
      return child;
    };
    supervisor = new Supervisor({
      spawn: counted,
      init: (internId) => ({ internId, allowPrivateRanges: [] }),
      handlers: r.handlers,
      startTimeoutMs: 15_000,
      backoff: new ConstantBackoff(50),
    });
    await supervisor.ensure('i1');
    expect(r.events).toEqual(['ready i1']);
    expect(supervisor.channel('i1')).toBeDefined();

    process.kill(pids[0]!, 'SIGKILL');
    await r.until(() => r.events.filter((e) => e === 'ready i1').length === 2);
    expect(r.events[1]).toBe('crash i1 SIGKILL 50');
    expect(pids).toHaveLength(2);
    expect(supervisor.channel('i1')).toBeDefined();

    await supervisor.stop('i1');
    expect(supervisor.channel('i1')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pids).toHaveLength(2);
    expect(r.events.filter((e) => e.startsWith('crash'))).toHaveLength(1);
  }, 30_000);

  it('rejects when the first start does not answer in time, and gives the intern up', async () => {
    const r = recorder();
    // A process with an IPC channel that never answers.
    const silent: SpawnIntern = () =>
      spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    supervisor = new Supervisor({
      spawn: silent,
      init: (internId) => ({ internId, allowPrivateRanges: [] }),
      handlers: r.handlers,
      startTimeoutMs: 300,
    });
    await expect(supervisor.ensure('i2')).rejects.toThrow(/did not acknowledge init within 300 ms/);
    expect(supervisor.isWanted('i2')).toBe(false);
    expect(r.events).toEqual([]);
  }, 15_000);
});
