import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

const sh = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The tour's step that starts with `**title.**`, up to the next step. */
function step(title: string): string {
  const start = README.indexOf(`**${title}.**`);
  expect(start, `README has the step ${title}`).toBeGreaterThan(-1);
  const next = README.indexOf('\n**', start + 1);
  return README.slice(start, next === -1 ? undefined : next);
}

describe('the README tour, followed in order', () => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    // What `npm run demo` serves: the simulator's models at the prices of examples/gateway.sim.yaml.
    const config = parseGatewayConfig(
      readFileSync(join(ROOT, 'examples', 'gateway.sim.yaml'), 'utf8'),
      'examples/gateway.sim.yaml',
      { knownKinds: PROVIDER_KINDS },
      { SIM_URL: sim.url },
    );
    gw = await startGateway(testEngines[0]!, { catalog: buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS }) });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it("runs the own-client step with the key it names, once the spend step has limited the tour's key", async () => {
    // "A key", then "Spend": the tour's key has a $0.001 limit by the time the own client runs.
    const made = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tour' } });
    await call(gw, 'PATCH', `/keys/${made.body.data.hash}`, { key: gw.managementKey, body: { limit: 0.001 } });

    const own = step('Your own client');
    const client = /```js\n([\s\S]*?)```/.exec(own)?.[1];
    const run = /```sh\n(.*node client\.mjs)\n/.exec(own)?.[1];
    expect(client).toBeDefined();
    expect(run, 'the step says how to run the client, with which key').toBeDefined();
    // In the repository's folder, as the step says: the `openai` package resolves from its node_modules.
    const dir = mkdtempSync(join(ROOT, 'node_modules', '.readme-tour-'));
    try {
      writeFileSync(join(dir, 'client.mjs'), client!.replace('http://127.0.0.1:8080/api/v1', gw.baseUrl));
      const env = { ...process.env, MGMT: gw.managementKey, KEY: made.body.key as string, BASE: gw.baseUrl };
      const { stdout } = await sh('sh', ['-c', run!], { cwd: dir, env });
      expect(stdout.trim()).toBe('This is a simulated reply. You said: Hello!');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
