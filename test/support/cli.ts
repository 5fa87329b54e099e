import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
/** `model-gateway` run from the sources (no build needed), for tests of the process as `serve` runs it. */
export const SOURCE_MAIN = ['--import', 'tsx', fileURLToPath(new URL('../../src/main.ts', import.meta.url))];

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `model-gateway …` to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServingProcess {
  child: ChildProcess;
  baseUrl: string;
  stdout: () => string;
  stderr: () => string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `model-gateway serve` on a free port and waits until it listens (from dist/, or from `main`: SOURCE_MAIN; in `cwd`, else here). */
export function startServe(env: NodeJS.ProcessEnv, main: readonly string[] = [MAIN], cwd?: string): Promise<ServingProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...main, 'serve'], {
      ...(cwd ? { cwd } : {}),
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      const match = /listening on (http:\/\/[^\s"]+\/api\/v1)/.exec(stdout);
      if (match?.[1]) {
        resolve({
          child,
          baseUrl: match[1],
          stdout: () => stdout,
          stderr: () => stderr,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening:\n${stderr}\n${stdout}`)));
  });
}
