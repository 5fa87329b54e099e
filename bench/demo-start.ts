// How long a second `npm run demo` takes to serve (issue 30: under 3 s once built), against a bare Node.js HTTP server
// started the same way in the same run: the floor of starting a process on this machine. See bench/README.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureBuilt } from './ensure-built.js';
import { freePort } from './free-port.js';
import { runStamp, writeResults } from './results-file.js';
import { summarize } from './summarize.js';
import { table } from './table.js';

const RUNS = Number(process.env.BENCH_DEMO_RUNS ?? 9);
const BARE_SERVER = "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.argv[1]), '127.0.0.1')";

/**
 * Milliseconds from spawning `command` until `ready(stdout)` gives a URL (and headers) that answers 200; the process
 * is then stopped. Polls every 20 ms: finer than the figures it reports.
 */
async function timeToServe(
  command: string,
  args: string[],
  ready: (stdout: string) => { url: string; headers?: Record<string, string> } | undefined,
): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'mg-bench-demo-'));
  const started = performance.now();
  const child = spawn(command, args, { env: { ...process.env, TMPDIR: home }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let exited = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  child.once('exit', () => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error(`${command} ${args.join(' ')} exited before it served:\n${stdout}`);
      if (performance.now() - started > 60_000) throw new Error(`${command} ${args.join(' ')} did not serve within 60 s`);
      const target = ready(stdout);
      if (target) {
        const answer = await fetch(target.url, { headers: target.headers ?? {} }).catch(() => undefined);
        await answer?.arrayBuffer();
        if (answer?.ok) return performance.now() - started;
      }
      await sleep(20);
    }
  } finally {
    // npm starts node under a shell: the whole group goes.
    if (child.pid !== undefined && !exited) process.kill(-child.pid, 'SIGKILL');
    await new Promise((resolve) => (exited ? resolve(undefined) : child.once('exit', resolve)));
    rmSync(home, { recursive: true, force: true });
  }
}

async function demo(): Promise<number> {
  const port = await freePort();
  return timeToServe('npm', ['run', '--silent', 'demo', '--', '--port', String(port)], (stdout) => {
    const key = /Bearer (sk-demo-\w+)/.exec(stdout)?.[1];
    return key ? { url: `http://127.0.0.1:${port}/api/v1/models`, headers: { authorization: `Bearer ${key}` } } : undefined;
  });
}

async function bare(): Promise<number> {
  const port = await freePort();
  return timeToServe(process.execPath, ['-e', BARE_SERVER, String(port)], () => ({ url: `http://127.0.0.1:${port}/` }));
}

ensureBuilt();
// The first demo after a build is not a second start: it is not measured.
await demo();
const demoMs: number[] = [];
const bareMs: number[] = [];
// Alternated, so that a burst of other work on the machine falls on both.
for (let run = 0; run < RUNS; run++) {
  demoMs.push(await demo());
  bareMs.push(await bare());
}
const demoSummary = summarize(demoMs);
const bareSummary = summarize(bareMs);
const ms = (value: number) => value.toFixed(0);
process.stdout.write(
  `\nA second \`npm run demo\` until GET /models answers, ${RUNS} runs each (ms):\n\n${table([
    ['', 'p50', 'p90', 'max'],
    ['npm run demo', ms(demoSummary.p50), ms(demoSummary.p90), ms(demoSummary.max)],
    ['bare node http server', ms(bareSummary.p50), ms(bareSummary.p90), ms(bareSummary.max)],
    ['ratio (p50)', `${(demoSummary.p50 / bareSummary.p50).toFixed(1)}×`, '', ''],
  ])}\n\nTarget: under 3,000 ms at p90.\n`,
);
const path = writeResults(runStamp('-demo-start'), { runs: RUNS, demo: demoSummary, bare: bareSummary, demoMs, bareMs });
process.stdout.write(`Results: ${path}\n`);
