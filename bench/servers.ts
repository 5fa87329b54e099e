import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.js';
import { GATEWAY_CORE, LOAD_CORE, type Pinning, pinned } from './pinning.js';
import type { Processes, Started } from './processes.js';
import { waitUntilReady } from './readiness.js';
import { gatewayYaml, MANAGEMENT_KEY } from './routes.js';

export interface Server {
  started: Started;
  origin: string;
}

const MAIN = 'dist/main.js';

/** The gateway's fresh SQLite database in the run's directory; the ledger measurement samples its rows afterwards. */
export const gatewayDatabaseFile = (dir: string) => join(dir, 'gateway.sqlite');
/** Where the gateway's live-heap probe (live-heap-probe.mjs) writes a line on each SIGUSR2. */
export const liveHeapFile = (dir: string) => join(dir, 'live-heap.jsonl');

/** Only what the servers need: an inherited DATABASE_URL, REDIS_URL or provider key would change what is measured. */
const cleanEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...extra,
});

export async function startSimulator(processes: Processes, pinning: Pinning, dir: string): Promise<Server> {
  const port = await freePort();
  const { command, args } = pinned(pinning, LOAD_CORE, process.execPath, [MAIN, 'sim', '--port', String(port)]);
  const started = processes.start('simulator', command, args, { env: cleanEnv({}), logPath: join(dir, 'sim.log') });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(started, `${origin}/v1/models`, { authorization: 'Bearer bench' });
  return { started, origin };
}

/** The gateway over a fresh SQLite database in `dir`; with `profileDir`, under `node --cpu-prof`. */
export async function startGateway(
  processes: Processes,
  pinning: Pinning,
  dir: string,
  simOrigin: string,
  profileDir: string | undefined,
): Promise<Server> {
  const port = await freePort();
  const configPath = join(dir, 'gateway.yaml');
  writeFileSync(configPath, gatewayYaml(simOrigin, { loopbackReceivers: true }));
  const probe = ['--expose-gc', '--import', resolve('bench/live-heap-probe.mjs')];
  const nodeArgs = profileDir === undefined ? probe : [...probe, '--cpu-prof', '--cpu-prof-dir', profileDir];
  const { command, args } = pinned(pinning, GATEWAY_CORE, process.execPath, [...nodeArgs, MAIN, 'serve']);
  const env = cleanEnv({
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: `sqlite:${gatewayDatabaseFile(dir)}`,
    GATEWAY_CONFIG: configPath,
    GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: MANAGEMENT_KEY,
    LOG_LEVEL: 'warn',
    LIVE_HEAP_FILE: liveHeapFile(dir),
  });
  const started = processes.start('gateway', command, args, { env, logPath: join(dir, 'gateway.log') });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(started, `${origin}/api/v1/models`, { authorization: `Bearer ${MANAGEMENT_KEY}` });
  return { started, origin };
}

/** The bare proxy (bare-proxy.ts) in front of the simulator, on the gateway's core: the floor the gateway is read against. */
export async function startBareProxy(processes: Processes, pinning: Pinning, dir: string, simOrigin: string): Promise<Server> {
  const port = await freePort();
  const { command, args } = pinned(pinning, GATEWAY_CORE, process.execPath, [
    '--import',
    'tsx',
    'bench/bare-proxy.ts',
    simOrigin,
    String(port),
  ]);
  const started = processes.start('bare proxy', command, args, { env: cleanEnv({}), logPath: join(dir, 'bare-proxy.log') });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(started, `${origin}/health`, {});
  return { started, origin };
}
