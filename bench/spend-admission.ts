// What admission costs a chat request: two builds of the gateway (before and after a change to it) in one run,
// each measured through a key without a limit and a key with one, then both again with three budgets set on their
// workspace (a build without workspace budgets ignores them). See bench/README.md ("Spend admission").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startCheckoutGateway, startCheckoutSimulator } from './checkout-gateway.js';
import type { ClosedLoopResult } from './load-types.js';
import { detectPinning, type Pinning } from './pinning.js';
import { cpuSeconds } from './proc-stats.js';
import { Processes } from './processes.js';
import { chatTarget, gatewayRoute, MANAGEMENT_KEY } from './routes.js';
import { runLoad } from './run-load.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: '.' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help || !values.before) {
  process.stdout.write(
    'usage: npx tsx bench/spend-admission.ts --before <checkout> [--after <checkout>] [--seconds 10] [--rounds 3] [--connections 64]\n' +
      'Each checkout is a directory with a built dist/ (npm run build). The builds take turns, round after round, over one simulator.\n',
  );
  process.exit(values.help ? 0 : 2);
}
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const builds = { before: resolve(values.before), after: resolve(values.after) };
type Build = keyof typeof builds;
const CALLERS = ['no limit', 'limit', 'budgets', 'limit + budgets'] as const;
type Caller = (typeof CALLERS)[number];

interface Sample {
  requestsPerSecond: number;
  /** The gateway's CPU time per answered request, µs. */
  cpuMicros: number;
}

const progress = (message: string) => process.stderr.write(`spend-admission: ${message}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A key whose limit no run reaches: every request is admitted through the limit check. */
async function limitedKey(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench limited', limit: 1_000_000_000 }),
  });
  return ((await response.json()) as { key: string }).key;
}

/**
 * Three budgets no run reaches on the keys' workspace (the default one): from here on every request of either key
 * is held against them too. A build that has no budget routes answers 404 and holds nothing more.
 */
async function setBudgets(origin: string): Promise<void> {
  for (const [interval, limit] of [
    ['daily', 1_000_000],
    ['monthly', 10_000_000],
    ['lifetime', 1_000_000_000],
  ] as const) {
    const response = await fetch(`${origin}/api/v1/workspaces/default/budgets/${interval}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ limit_usd: limit }),
    });
    if (response.status !== 200 && response.status !== 404) throw new Error(`PUT ${interval} budget answered ${response.status}`);
  }
}

async function measure(processes: Processes, pinning: Pinning, pid: number, origin: string, key: string): Promise<Sample> {
  const target = { ...chatTarget(gatewayRoute(origin)), authorization: `Bearer ${key}` };
  const cpu: number[] = [];
  const output = await runLoad(processes, pinning, 'load-closed.ts', { target, connections, seconds, warmupSeconds: 2 }, () =>
    cpu.push(cpuSeconds(pid) ?? NaN),
  );
  const result: ClosedLoopResult = output.result;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors through ${origin}`);
  return { requestsPerSecond: result.requestsPerSecond, cpuMicros: ((cpu[1]! - cpu[0]!) / result.requests) * 1e6 };
}

async function main(): Promise<void> {
  const pinning = detectPinning();
  progress(pinning.note);
  const processes = new Processes();
  const dir = mkdtempSync(join(tmpdir(), 'spend-admission-'));
  const noSamples = () => Object.fromEntries(CALLERS.map((caller) => [caller, []])) as unknown as Record<Caller, Sample[]>;
  const samples: Record<Build, Record<Caller, Sample[]>> = { before: noSamples(), after: noSamples() };
  try {
    const { origin: simOrigin } = await startCheckoutSimulator(processes, pinning, dir, builds.after);
    for (let round = 0; round < rounds; round++) {
      // Alternate which build goes first, so that neither always meets a warmer or a busier machine.
      const order: Build[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
      for (const build of order) {
        const gateway = await startCheckoutGateway(processes, pinning, { dir, checkout: builds[build], name: build, simOrigin });
        const key = await limitedKey(gateway.origin);
        const phases = [
          [
            ['no limit', MANAGEMENT_KEY],
            ['limit', key],
          ],
          [
            ['budgets', MANAGEMENT_KEY],
            ['limit + budgets', key],
          ],
        ] as const;
        for (const [phase, callers] of phases.entries()) {
          if (phase === 1) await setBudgets(gateway.origin);
          for (const [caller, bearer] of round % 2 === 0 ? callers : [...callers].reverse()) {
            const sample = await measure(processes, pinning, gateway.started.pid, gateway.origin, bearer);
            samples[build][caller].push(sample);
            progress(
              `round ${round + 1}, ${build}, ${caller}: ${sample.requestsPerSecond.toFixed(0)} req/s, ${sample.cpuMicros.toFixed(0)} µs CPU a request`,
            );
          }
        }
        gateway.started.child.kill('SIGTERM');
        await gateway.started.exited;
      }
    }
  } finally {
    await processes.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
  const lines = [
    '| key | before req/s | after req/s | after/before | before µs CPU/req | after µs CPU/req | after/before |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const caller of CALLERS) {
    const rps = (build: Build) => median(samples[build][caller].map((s) => s.requestsPerSecond));
    const cpu = (build: Build) => median(samples[build][caller].map((s) => s.cpuMicros));
    lines.push(
      `| ${caller} | ${rps('before').toFixed(0)} | ${rps('after').toFixed(0)} | ${(rps('after') / rps('before')).toFixed(3)} | ${cpu('before').toFixed(0)} | ${cpu('after').toFixed(0)} | ${(cpu('after') / cpu('before')).toFixed(3)} |`,
    );
  }
  process.stdout.write(`medians of ${rounds} rounds of ${seconds} s, ${connections} connections (${pinning.note})\n${lines.join('\n')}\n`);
}

await main();
