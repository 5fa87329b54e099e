// The guard against the next slowdown: the working tree's build against another commit's, measured in one run,
// taking turns round after round over one simulator. See docs/benchmark.md ("Before landing a change").
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startCheckoutGateway, startCheckoutSimulator } from './checkout-gateway.js';
import { detectPinning, type Pinning } from './pinning.js';
import { prepareCheckout } from './prepare-checkout.js';
import { cpuSeconds, memory } from './proc-stats.js';
import { Processes } from './processes.js';
import { chatTarget, gatewayRoute } from './routes.js';
import { runLoad } from './run-load.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
    rate: { type: 'string', default: '1000' },
    help: { type: 'boolean', default: false },
  },
});
const [ref] = positionals;
if (values.help || !ref) {
  process.stdout.write(
    'usage: npm run bench:compare -- <git-ref> [--rounds 3] [--seconds 8] [--connections 64] [--rate 1000]\n' +
      "Builds <git-ref> under node_modules/.cache/bench-builds/ (once), then measures it and this working tree's dist/ (npm run build first)\n" +
      'in turns: throughput and CPU per request at full load, latency and CPU per request at a fixed rate, peak RSS.\n',
  );
  process.exit(values.help ? 0 : 2);
}
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const rate = Number(values.rate);

const progress = (message: string) => process.stderr.write(`bench:compare: ${message}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Sample {
  requestsPerSecond: number;
  /** The gateway's CPU time per answered request at full load, µs. */
  saturatedCpuMicros: number;
  /** The same at the fixed rate, where each request wakes an idle process. */
  rateCpuMicros: number;
  p50Ms: number;
  p99Ms: number;
  peakRssMb: number;
}
const FIGURES: [keyof Sample, string, number][] = [
  ['requestsPerSecond', `throughput, ${connections} connections (req/s)`, 0],
  ['saturatedCpuMicros', 'CPU per request at full load (µs)', 0],
  ['rateCpuMicros', `CPU per request at ${rate} req/s (µs)`, 0],
  ['p50Ms', `latency p50 at ${rate} req/s (ms)`, 2],
  ['p99Ms', `latency p99 at ${rate} req/s (ms)`, 2],
  ['peakRssMb', 'peak RSS (MB)', 0],
];

/** One build's turn: a fresh gateway, full load, then the fixed rate. Any failed request voids the run. */
async function measure(processes: Processes, pinning: Pinning, dir: string, checkout: string, name: string, simOrigin: string) {
  const gateway = await startCheckoutGateway(processes, pinning, { dir, checkout, name, simOrigin });
  try {
    const pid = gateway.started.pid;
    const target = chatTarget(gatewayRoute(gateway.origin));
    const cpu: number[] = [];
    const closed = await runLoad(processes, pinning, 'load-closed.ts', { target, connections, seconds, warmupSeconds: 2 }, () =>
      cpu.push(cpuSeconds(pid) ?? NaN),
    );
    const full = closed.result;
    if (full.non2xx > 0 || full.errors > 0) throw new Error(`${name}: ${full.non2xx} non-2xx answers and ${full.errors} errors`);
    const atRate: number[] = [];
    const open = await runLoad(processes, pinning, 'load-open.ts', { target, rate, seconds, connections, warmupSeconds: 2 }, () =>
      atRate.push(cpuSeconds(pid) ?? NaN),
    );
    const fixed = open.result;
    if (fixed.non2xx > 0 || fixed.errors > 0)
      throw new Error(`${name}: ${fixed.non2xx} non-2xx answers and ${fixed.errors} errors at ${rate} req/s`);
    return {
      requestsPerSecond: full.requestsPerSecond,
      saturatedCpuMicros: ((cpu[1]! - cpu[0]!) / full.requests) * 1e6,
      rateCpuMicros: ((atRate[1]! - atRate[0]!) / fixed.completed) * 1e6,
      p50Ms: fixed.latency.p50,
      p99Ms: fixed.latency.p99,
      peakRssMb: memory(pid)?.peakRssMb ?? NaN,
    } satisfies Sample;
  } finally {
    gateway.started.child.kill('SIGTERM');
    await gateway.started.exited;
  }
}

async function main(): Promise<void> {
  const before = prepareCheckout(ref!, progress);
  const builds = { before: before.dir, after: resolve('.') };
  type Build = keyof typeof builds;
  const pinning = detectPinning();
  progress(pinning.note);
  const processes = new Processes();
  const dir = mkdtempSync(join(tmpdir(), 'bench-compare-'));
  const samples: Record<Build, Sample[]> = { before: [], after: [] };
  try {
    const sim = await startCheckoutSimulator(processes, pinning, dir, builds.after);
    for (let round = 0; round < rounds; round++) {
      // Alternate which build goes first, so that neither always meets a warmer or a busier machine.
      for (const build of (round % 2 === 0 ? ['before', 'after'] : ['after', 'before']) as Build[]) {
        const sample = await measure(processes, pinning, dir, builds[build], build, sim.origin);
        samples[build].push(sample);
        progress(
          `round ${round + 1}, ${build}: ${sample.requestsPerSecond.toFixed(0)} req/s, ${sample.saturatedCpuMicros.toFixed(0)} µs a request; ` +
            `at ${rate} req/s ${sample.rateCpuMicros.toFixed(0)} µs, p99 ${sample.p99Ms.toFixed(2)} ms; peak RSS ${sample.peakRssMb.toFixed(0)} MB`,
        );
      }
    }
  } finally {
    await processes.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
  const lines = [`| | ${ref} (${before.commit.slice(0, 7)}) | working tree | working tree / ${ref} |`, '|---|---:|---:|---:|'];
  for (const [field, label, digits] of FIGURES) {
    const [a, b] = [median(samples.before.map((s) => s[field])), median(samples.after.map((s) => s[field]))];
    lines.push(`| ${label} | ${a.toFixed(digits)} | ${b.toFixed(digits)} | ${(b / a).toFixed(3)} |`);
  }
  const report = `medians of ${rounds} rounds of ${seconds} s per phase (${pinning.note})\n${lines.join('\n')}\n`;
  process.stdout.write(report);
  mkdirSync('bench/results', { recursive: true });
  const file = join('bench/results', `compare-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ ref, commit: before.commit, rounds, seconds, connections, rate, samples }, null, 2));
  progress(`results: ${file}`);
}

await main();
