// What the image runs, run without Docker (this machine has none): the runtime stage's files laid out as its /app,
// `serve` started there with the Dockerfile's environment and no other, and its HEALTHCHECK command run as Docker runs
// it. The compose file's health check of the simulator is run the same way.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MAIN, startServe } from '../support/cli.js';
import { argumentsOf, envOf, execForm, flagOf, runtimeStage, withKeyword } from '../support/dockerfile.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The runtime stage's COPYs, each destination under a temporary /app pointing at what the build leaves in the repository. */
function layOutApp(): string {
  const app = mkdtempSync(join(tmpdir(), 'mg-image-app-'));
  for (const copy of withKeyword(runtimeStage, 'COPY')) {
    const [source, destination] = argumentsOf(copy) as [string, string];
    // A COPY --from=build takes the build stage's /app/X, which `npm run build` leaves at X here.
    const from = flagOf(copy, 'from') !== undefined ? source.replace(/^\/app\//, '') : source;
    const target = join(app, destination === './' ? from : destination);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, from), target);
  }
  for (const run of withKeyword(runtimeStage, 'RUN')) {
    const made = /mkdir -p \/app\/(\S+)/.exec(run.getArgumentsContent() ?? '');
    if (made) mkdirSync(join(app, made[1]!), { recursive: true });
  }
  return app;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Runs a health check's argv in `cwd` with `env` alone (as in a container), resolving with its exit code. */
function check(argv: string[], cwd: string, env: Record<string, string>): Promise<number | null> {
  const [command, ...args] = argv;
  return new Promise((resolve, reject) => {
    const child = spawn(command === 'node' ? process.execPath : command!, args, {
      cwd,
      env: { PATH: process.env.PATH, ...env },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

/** The container's environment: the Dockerfile's ENV and nothing of this machine's (no DATABASE_URL, no provider key). */
const unset = Object.fromEntries(
  Object.keys(process.env)
    .filter((name) => /^(DATABASE_URL|REDIS_URL|GATEWAY_|LEDGER_|SIM_)|_(API_KEY|BASE_URL)$/.test(name))
    .map((name) => [name, undefined]),
);

const apps: string[] = [];
afterAll(() => {
  for (const app of apps) rmSync(app, { recursive: true, force: true });
});

describe("the image's program, laid out as the runtime stage lays it out", () => {
  it('serves from /app on every interface, keeps its database in the data folder, and passes its HEALTHCHECK while it serves', async () => {
    const app = layOutApp();
    apps.push(app);
    const env = Object.fromEntries(envOf(runtimeStage));
    const port = String(await freePort());
    const [healthcheck] = withKeyword(runtimeStage, 'HEALTHCHECK');
    const argv = execForm(healthcheck!);

    const serving = await startServe({ ...unset, ...env, PORT: port }, [MAIN], app);
    try {
      expect(serving.baseUrl).toContain(`:${port}/api/v1`);
      expect(await check(argv, app, { ...env, PORT: port })).toBe(0);
      expect(existsSync(join(app, 'data', 'gateway.sqlite'))).toBe(true);
      expect(serving.stderr()).toMatch(/First start: created the default organization and this management key/);
    } finally {
      await serving.stop();
    }
    expect(await check(argv, app, { ...env, PORT: port })).toBe(1);
  });

  it("runs the simulator of the compose file's demo profile, which passes that file's health check", async () => {
    const sim = (
      parse(readFileSync(join(root, 'compose.yaml'), 'utf8')) as {
        services: Record<string, { command: string[]; healthcheck: { test: string[] } }>;
      }
    ).services.sim!;
    const port = String(await freePort());
    // The file's port, here a free one, in the command and its check alike.
    const command = sim.command.map((arg) => (arg === '8081' ? port : arg));
    const test = sim.healthcheck.test.slice(1).map((arg) => arg.replace(':8081/', `:${port}/`));
    expect(test.join(' ')).toContain(`:${port}/`);
    const child = spawn(process.execPath, [MAIN, ...command], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
        child.on('close', (code) => reject(new Error(`the simulator exited with ${code}`)));
      });
      expect(await check(test, root, {})).toBe(0);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
