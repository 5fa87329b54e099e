import { join } from 'node:path';
import type { LoadOutput, Mark } from './load-main.js';
import type {
  ClosedLoopResult,
  ClosedLoopSpec,
  LedgerCostResult,
  LedgerCostSpec,
  OpenLoopResult,
  OpenLoopSpec,
  StreamResult,
  StreamSpec,
} from './load-types.js';
import { LOAD_CORE, type Pinning, pinned } from './pinning.js';
import type { Processes } from './processes.js';

interface LoadScripts {
  'load-closed.ts': [ClosedLoopSpec, ClosedLoopResult];
  'load-open.ts': [OpenLoopSpec, OpenLoopResult];
  'load-stream.ts': [StreamSpec, StreamResult];
  'ledger-cost.ts': [LedgerCostSpec, LedgerCostResult];
}

/**
 * Runs one load phase in its own process on the load core, so that the
 * generator never competes with the gateway for its core (or, with `core`,
 * a measurement that stands in for the gateway on its own); reports its
 * marks as they come and returns the output it prints last.
 */
export async function runLoad<S extends keyof LoadScripts>(
  processes: Processes,
  pinning: Pinning,
  script: S,
  spec: LoadScripts[S][0],
  onMark: (mark: Mark) => void = () => undefined,
  core = LOAD_CORE,
): Promise<LoadOutput<LoadScripts[S][1]>> {
  const { command, args } = pinned(pinning, core, process.execPath, ['--import', 'tsx', join('bench', script), JSON.stringify(spec)]);
  const started = processes.start(script, command, args);
  let pending = '';
  let output: LoadOutput<LoadScripts[S][1]> | undefined;
  started.child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim() !== '')) {
      const message = JSON.parse(line) as { mark: Mark } | LoadOutput<LoadScripts[S][1]>;
      if ('mark' in message) onMark(message.mark);
      else output = message;
    }
  });
  const code = await started.exited;
  if (code !== 0 || output === undefined) throw new Error(`${script} failed (exit code ${code})`);
  return output;
}
