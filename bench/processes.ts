import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface Started {
  name: string;
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal); never rejects. */
  exited: Promise<number | null>;
  logPath: string | undefined;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Servers log to a file (shown when they fail); load processes pipe their JSON result on stdout. */
  logPath?: string;
}

/** Every child the benchmark starts, so that all of them are stopped however the run ends. */
export class Processes {
  private readonly running = new Set<Started>();
  /** Every process started, running or not: their logs explain a failure. */
  readonly history: Started[] = [];

  start(name: string, command: string, args: string[], options: StartOptions = {}): Started {
    const log = options.logPath === undefined ? undefined : openSync(options.logPath, 'a');
    const child = spawn(command, args, {
      cwd: process.cwd(),
      env: options.env ?? process.env,
      stdio: log === undefined ? ['ignore', 'pipe', 'inherit'] : ['ignore', log, log],
    });
    if (log !== undefined) closeSync(log); // the child holds its own descriptor
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', (error) => {
        process.stderr.write(`bench: could not start ${name}: ${error.message}\n`);
        resolve(-1);
      });
    });
    const started: Started = { name, pid: child.pid ?? -1, child, exited, logPath: options.logPath };
    this.running.add(started);
    this.history.push(started);
    void exited.then(() => this.running.delete(started));
    return started;
  }

  /** SIGTERM (servers drain and exit; a profiled gateway writes its profile), then SIGKILL whatever is left. */
  async stopAll(graceMs = 15_000): Promise<void> {
    const all = [...this.running];
    for (const p of all) p.child.kill('SIGTERM');
    await Promise.all(
      all.map(async (p) => {
        const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
        await p.exited;
        clearTimeout(timer);
      }),
    );
  }
}

/** The end of a server's log, to explain why it failed. */
export function logTail(started: Started, lines = 30): string {
  if (started.logPath === undefined) return '';
  try {
    return readFileSync(started.logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
