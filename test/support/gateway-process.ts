import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SimModel } from './sim-gateway.js';

/** What the child gateway serves and shares: an existing database, optionally Redis, the simulator's models, reservation timings. */
export interface GatewayProcessConfig {
  databaseUrl: string;
  redisUrl?: string;
  simUrl: string;
  providers: string[];
  models: SimModel[];
  spend?: { holdMs?: number };
}

export interface GatewayProcess {
  baseUrl: string;
  /** The key the instance bootstrapped its database with. */
  managementKey: string;
  child: ChildProcess;
  /** SIGKILL: the process dies at once, as in a crash, with whatever it held. */
  crash(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./gateway-process-entry.ts', import.meta.url));

/** A gateway in a process of its own (test/support/gateway.ts's startGateway), for tests that crash an instance. */
export function startGatewayProcess(config: GatewayProcessConfig): Promise<GatewayProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      const match = /^listening (\S+) (\S+)$/m.exec(stdout);
      if (match?.[1] && match[2])
        resolve({
          baseUrl: match[1],
          managementKey: match[2],
          child,
          crash: () => {
            child.kill('SIGKILL');
            return exited;
          },
        });
    });
    child.once('exit', (code) => reject(new Error(`the gateway process exited (${code}) before listening: ${stderr}`)));
  });
}
