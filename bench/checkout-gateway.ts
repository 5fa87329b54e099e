import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { GATEWAY_CORE, LOAD_CORE, type Pinning, pinned } from './pinning.js';
import type { Processes, Started } from './processes.js';
import { waitUntilReady } from './readiness.js';
import { gatewayYaml, MANAGEMENT_KEY } from './routes.js';

/**
 * The gateway of one built checkout (a directory with dist/), on the gateway's core, over a fresh SQLite database
 * named after `name` in `dir`, in front of the simulator: how two builds are measured side by side in one run.
 */
export async function startCheckoutGateway(
  processes: Processes,
  pinning: Pinning,
  options: { dir: string; checkout: string; name: string; simOrigin: string },
): Promise<{ started: Started; origin: string }> {
  const { dir, checkout, name, simOrigin } = options;
  const port = await freePort();
  const configPath = join(dir, `${name}.yaml`);
  writeFileSync(configPath, gatewayYaml(simOrigin));
  const { command, args } = pinned(pinning, GATEWAY_CORE, process.execPath, [join(checkout, 'dist/main.js'), 'serve']);
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: `sqlite:${join(dir, `${name}.sqlite`)}`,
    GATEWAY_CONFIG: configPath,
    GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: MANAGEMENT_KEY,
    // info to measure what the access log's line per request costs (docs/operations.md, "Access log").
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  };
  const started = processes.start(`gateway (${name})`, command, args, { env, logPath: join(dir, `${name}.log`) });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(started, `${origin}/api/v1/models`, { authorization: `Bearer ${MANAGEMENT_KEY}` });
  return { started, origin };
}

/** The simulator of the checkout `checkout`, on the load core. */
export async function startCheckoutSimulator(processes: Processes, pinning: Pinning, dir: string, checkout: string) {
  const port = await freePort();
  const { command, args } = pinned(pinning, LOAD_CORE, process.execPath, [join(checkout, 'dist/main.js'), 'sim', '--port', String(port)]);
  const started = processes.start('simulator', command, args, { logPath: join(dir, 'sim.log') });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(started, `${origin}/v1/models`, { authorization: 'Bearer bench' });
  return { started, origin };
}
