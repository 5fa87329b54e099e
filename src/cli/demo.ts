import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseGatewayConfig } from '../config/load-gateway-config.js';
import type { Settings } from '../config/settings.js';
import { PROVIDER_KINDS } from '../providers/registry.js';
import { startSimulator } from '../sim/server.js';
import { stopOnSignal } from './serve.js';
import { startGateway } from './start-gateway.js';

/** The demo's providers and models: the simulator, reached at ${SIM_URL}. */
const DEMO_CONFIG = new URL('../../examples/gateway.sim.yaml', import.meta.url);

/** What the demo prints once it serves: commands to paste, its database for the command line, and where to go next. */
export function demoInstructions(baseUrl: string, key: string, databaseUrl: string): string {
  const curl = (body: string, flags = '-s', path = '/chat/completions') =>
    `  curl ${flags} ${baseUrl}${path} \\\n` +
    `    -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\\n` +
    `    -d '${body}'\n`;
  const hello = '"messages":[{"role":"user","content":"Hello!"}]';
  return (
    `\nModel Gateway demo: the gateway serves ${baseUrl} in front of its built-in simulator,\n` +
    `on a throw-away database. Ctrl-C stops both and deletes the database.\n\n` +
    `A chat completion:\n\n${curl(`{"model":"sim/chat",${hello}}`)}\n` +
    `The same, streamed:\n\n${curl(`{"model":"sim/chat","stream":true,${hello}}`, '-sN')}\n` +
    `Embeddings:\n\n${curl('{"model":"sim/embed","input":["Hello!","Goodbye!"]}', '-s', '/embeddings')}\n` +
    `The web console: ${new URL('/console/', baseUrl).href} (sign in with the key above).\n\n` +
    `The command line reaches the demo's database with DATABASE_URL (from this folder, in another terminal):\n\n` +
    `  DATABASE_URL='${databaseUrl}' node dist/main.js keys list\n\n` +
    `"model":"sim/flaky" falls back past a provider that answers 503; the models: curl -s ${baseUrl}/models -H 'Authorization: Bearer ${key}'\n\n`
  );
}

/**
 * `model-gateway demo`: the simulator on a free port of its own and the
 * gateway in front of it, in this one process, on a database in a temporary
 * folder (the settings' database, config, Redis and ledger outbox are not used). A failed
 * start (the port taken) removes what it made and changes nothing.
 */
export async function runDemo(settings: Settings, out: NodeJS.WritableStream = process.stdout): Promise<void> {
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
  const dir = await mkdtemp(join(tmpdir(), 'model-gateway-demo-'));
  const simulator = await startSimulator({ host: '127.0.0.1', port: 0 });
  const cleanUp = async () => {
    await simulator.close();
    await rm(dir, { recursive: true, force: true });
  };
  const key = `sk-demo-${randomBytes(16).toString('hex')}`;
  try {
    const env = { ...process.env, SIM_URL: simulator.url };
    const config = parseGatewayConfig(readFileSync(DEMO_CONFIG, 'utf8'), 'examples/gateway.sim.yaml', { knownKinds: PROVIDER_KINDS }, env);
    const databaseUrl = `sqlite:${join(dir, 'gateway.sqlite')}`;
    const gateway = await startGateway(
      {
        ...settings,
        databaseUrl,
        configPath: undefined,
        bootstrapManagementKey: key,
        redisUrl: undefined,
        sharedServices: { ...settings.sharedServices, ledgerOutboxDir: join(dir, 'ledger-outbox') },
      },
      { config, logger, portSetting: 'PORT (or --port)' },
    );
    out.write(demoInstructions(gateway.baseUrl, key, databaseUrl));
    stopOnSignal(async () => {
      await gateway.stop();
      await cleanUp();
    }, logger);
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
