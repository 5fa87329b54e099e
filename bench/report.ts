import type { Figures } from './figures.js';
import type { Summary } from './load-types.js';
import type { PhaseResults } from './phases.js';
import type { ProfileSummary } from './profile.js';
import type { MachineState } from './quiet-machine.js';
import { SIM_MODEL, SIM_STREAM_MODEL } from './routes.js';
import type { BenchSettings } from './settings.js';
import { table } from './table.js';
import type { TargetCheck } from './targets.js';
import { WORKSPACE_CASES, type WorkspaceCase } from './workspace-cases.js';

export interface RunInfo {
  date: string;
  node: string;
  cpu: string;
  cores: number;
  commit: string;
  pinning: string;
  machine: MachineState;
}

const n = (x: number | undefined, digits = 0) =>
  x === undefined || Number.isNaN(x) ? 'n/a' : x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (x: number | undefined) => n(x, 3);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${ms(x)}`;
const pair = (s: Summary, key: 'p50' | 'p99') => ms(s[key]);

/** The human-readable report: direct and gateway side by side, then the gateway's costs and the targets. */
export function renderReport(
  info: RunInfo,
  s: BenchSettings,
  r: PhaseResults,
  f: Figures,
  checks: TargetCheck[],
  gatewayStartRssMb: number | undefined,
  profile: ProfileSummary | undefined,
): string {
  const d = r.direct;
  const g = r.gateway;
  const b = r.bareProxy;
  const out: string[] = [];
  out.push(
    `Model Gateway benchmark, ${info.date} (UTC)${s.quick ? ' — QUICK MODE, figures not for the record' : ''}${s.profile ? ' — PROFILED, figures inflated by the profiler' : ''}`,
  );
  out.push(`  node ${info.node}, ${info.cpu} (${info.cores} cores), commit ${info.commit}`);
  out.push(`  ${info.pinning}`);
  const m = info.machine;
  if (m.othersBusy !== undefined) {
    const busy = `${n(m.othersBusy * 100)}% of a core`;
    out.push(
      `  other processes before the start: ${busy}${m.quiet ? '' : ` — NOT QUIET after waiting ${n(m.waitedSeconds)} s: other work on the machine disturbs these figures`}`,
    );
  }
  out.push(`  phases ${s.phaseSeconds} s after a ${s.warmupSeconds} s warm-up; upstream model ${SIM_MODEL}, streams ${SIM_STREAM_MODEL}`);

  out.push('', `Throughput, closed loop, ${s.concurrency} connections (autocannon, ${s.phaseSeconds} s)`);
  out.push(
    table([
      ['', 'direct', 'bare proxy', 'gateway', ''],
      [
        'requests/s',
        n(d.throughput.result.requestsPerSecond),
        n(b.throughput.result.requestsPerSecond),
        n(g.throughput.result.requestsPerSecond),
        `ratio ${n(f.throughputRatio, 2)} (bare proxy: ${n(f.bareProxyRps / f.directRps, 2)})`,
      ],
      ...(['p50', 'p99'] as const).map((p) => [
        `latency ${p} (ms)`,
        ms(d.throughput.result.latencyMs[p]),
        ms(b.throughput.result.latencyMs[p]),
        ms(g.throughput.result.latencyMs[p]),
        '',
      ]),
      ['errors / non-2xx', ...[d, b, g].map((x) => `${x.throughput.result.errors} / ${x.throughput.result.non2xx}`), ''],
    ]),
  );

  const lo = (x: Pick<PhaseResults['direct'], 'openLoop'>) => x.openLoop.result;
  out.push('', `Latency, open loop at ${n(s.openLoopRate)} requests/s (${s.phaseSeconds} s), from each request's scheduled send time`);
  out.push(
    table([
      ['', 'direct', 'bare proxy', 'gateway', 'added (gateway)'],
      ...(['p50', 'p90', 'p99', 'max'] as const).map((p) => [
        `${p} (ms)`,
        ...[d, b, g].map((x) => ms(lo(x).latency[p])),
        signed(lo(g).latency[p] - lo(d).latency[p]),
      ]),
      ['completed / scheduled', ...[d, b, g].map((x) => `${lo(x).completed} / ${lo(x).scheduled}`), ''],
      ['achieved requests/s', ...[d, b, g].map((x) => n(lo(x).achievedRate)), ''],
      ['errors / non-2xx', ...[d, b, g].map((x) => `${lo(x).errors} / ${lo(x).non2xx}`), ''],
      ['generator send lag p50 / p99 (ms)', ...[d, b, g].map((x) => `${pair(lo(x).sendLag, 'p50')} / ${pair(lo(x).sendLag, 'p99')}`), ''],
    ]),
  );

  const st = (x: PhaseResults['direct']) => x.streaming.result;
  out.push('', `Streaming, ${s.streams} streams, ${s.streamConcurrency} at a time (20 chunks, 5 ms apart upstream)`);
  out.push(
    table([
      ['', 'direct', 'gateway', 'added'],
      ['first byte p50 (ms)', ms(st(d).firstByte.p50), ms(st(g).firstByte.p50), signed(f.firstByteOverheadP50Ms)],
      ['first byte p99 (ms)', ms(st(d).firstByte.p99), ms(st(g).firstByte.p99), signed(f.firstByteOverheadP99Ms)],
      ['whole stream p50 (ms)', ms(st(d).whole.p50), ms(st(g).whole.p50), signed(f.wholeStreamOverheadP50Ms)],
      ['whole stream p99 (ms)', ms(st(d).whole.p99), ms(st(g).whole.p99), signed(st(g).whole.p99 - st(d).whole.p99)],
      ['completed / errors', `${st(d).completed} / ${st(d).errors}`, `${st(g).completed} / ${st(g).errors}`, ''],
    ]),
  );

  const fw = f.workspaces;
  const rounds = (c: WorkspaceCase) => r.workspaces.cases[c].map((m) => m.result);
  out.push(
    '',
    `Workspaces: a key of a workspace with nothing set, of one with three budgets (daily, weekly, monthly), of one with three destinations (webhook, OTLP, Langfuse), closed loop, ${s.concurrency} connections, medians of ${fw.rounds} rounds of ${s.phaseSeconds} s`,
  );
  out.push(
    table([
      ['', 'nothing set', 'three budgets', 'three destinations', 'budgets / nothing', 'destinations / nothing'],
      ['requests/s', ...WORKSPACE_CASES.map((c) => n(fw.rps[c])), n(fw.ratios.budgets.rps, 3), n(fw.ratios.destinations.rps, 3)],
      [
        'gateway CPU per request (µs)',
        ...WORKSPACE_CASES.map((c) => n(fw.cpuMicros[c])),
        n(fw.ratios.budgets.cpu, 3),
        n(fw.ratios.destinations.cpu, 3),
      ],
      ['latency p50 (ms)', ...WORKSPACE_CASES.map((c) => ms(fw.p50Ms[c])), n(fw.ratios.budgets.p50, 3), n(fw.ratios.destinations.p50, 3)],
      [
        'errors / non-2xx, all rounds',
        ...WORKSPACE_CASES.map((c) => `${rounds(c).reduce((x, y) => x + y.errors, 0)} / ${rounds(c).reduce((x, y) => x + y.non2xx, 0)}`),
        '',
        '',
      ],
    ]),
  );
  out.push(
    `The destinations' sender: ${n(fw.queuedPerSecond)} events/s queued at full load; once it stopped, at most ${n(fw.backlogAtEnd)} were left, sent ${
      fw.drainSeconds === undefined ? 'NOT within 120 s' : `within ${fw.drainSeconds.toFixed(1)} s (${n(fw.sentPerSecond)} events/s)`
    }.`,
  );

  const soak = r.soak.result;
  out.push('', 'Gateway process');
  out.push(
    table([
      ...(['throughput', 'openLoop'] as const).map((p) => [
        `CPU per request, ${p === 'throughput' ? 'throughput phase' : `open loop ${n(s.openLoopRate)}/s`}`,
        `${n(f.gatewayCpuMicros[p])} µs`,
        `(bare proxy: ${n(f.bareProxyCpuMicros[p])} µs, ${n((f.gatewayCpuMicros[p] ?? NaN) / (f.bareProxyCpuMicros[p] ?? NaN), 1)}×; simulator alone: ${n(f.simCpuMicros[p])} µs)`,
      ]),
      ['CPU per stream', `${n(f.gatewayCpuMicros.streaming)} µs`, ''],
      ...(['throughput', 'openLoop', 'streaming'] as const).map((p) => {
        const runtime = r.gateway[p].runtime;
        const name = p === 'throughput' ? 'throughput phase' : p === 'openLoop' ? `open loop ${n(s.openLoopRate)}/s` : 'streaming';
        return runtime
          ? [
              `event-loop delay, ${name}`,
              `p99 ${ms(runtime.loopP99Ms)} ms`,
              `(p50 ${ms(runtime.loopP50Ms)} ms, max ${ms(runtime.loopMaxMs)} ms; GC: ${n(runtime.gcPauses)} pauses, ${ms(runtime.gcMs)} ms)`,
            ]
          : [`event-loop delay, ${name}`, 'not read', '(the gateway answered no /metrics)'];
      }),
      [
        'SQLite ledger, CPU per row, one row a commit',
        `${n(f.ledger.singleRowMicros)} µs`,
        "(measured alone on the gateway's core: a commit the bare proxy does not make)",
      ],
      [
        `SQLite ledger, CPU per row, ${f.ledger.batch} rows a commit`,
        `${n(f.ledger.batchRowMicros)} µs`,
        "(a busy gateway's group commit)",
      ],
      ['CPU per request, soak', `${n(f.gatewayCpuMicros.soak)} µs`, ''],
      [
        'gateway CPU / autocannon time, throughput',
        `${n((f.gatewayCoreBusy ?? NaN) * 100)}%`,
        "(near 100%: the gateway's core was the limit)",
      ],
      ['RSS after start', `${n(gatewayStartRssMb, 1)} MB`, ''],
      ['peak RSS (VmHWM)', `${n(f.gatewayPeakRssMb, 1)} MB`, ''],
      [
        `soak, ${s.soakSeconds} s at ${n(s.openLoopRate)}/s`,
        `${soak.load.completed} ok`,
        `p50 ${ms(soak.load.latency.p50)} ms, p99 ${ms(soak.load.latency.p99)} ms, errors ${soak.load.errors + soak.load.non2xx}`,
      ],
      [
        `soak RSS, first / last ${n(soak.windowSeconds)} s mean`,
        `${n(soak.firstWindowMb, 1)} / ${n(soak.lastWindowMb, 1)} MB`,
        `${soak.drift >= 0 ? '+' : ''}${n(soak.drift * 100, 1)}%, slope ${n(soak.slopeMbPerMinute, 2)} MB/min`,
      ],
      [
        `soak RSS, first / last ${n(soak.windowSeconds)} s floor`,
        `${n(soak.firstWindowFloorMb, 1)} / ${n(soak.lastWindowFloorMb, 1)} MB`,
        `${soak.floorDrift >= 0 ? '+' : ''}${n(soak.floorDrift * 100, 1)}% (lowest sample: after a collection)`,
      ],
      [
        'soak live heap after a full collection, start / end',
        soak.liveHeap ? `${n(soak.liveHeap.firstMb, 1)} / ${n(soak.liveHeap.lastMb, 1)} MB` : 'n/a',
        soak.liveHeap
          ? `${soak.liveHeap.drift >= 0 ? '+' : ''}${n(soak.liveHeap.drift * 100, 1)}% (what the gateway retains)`
          : '(the probe did not answer)',
      ],
    ]),
  );

  out.push(
    '',
    'Cores during each phase (share of the phase\'s wall time; "others" is other work on the machine, which disturbs the figures)',
  );
  const pct = (x: number | undefined) => (x === undefined ? 'n/a' : `${n(x * 100)}%`);
  out.push(
    table([
      ['', 'core 0: gateway', 'others', 'core 1: sim + load', 'others', 'attempts'],
      ...f.cores.map((c) => [
        c.phase,
        pct(c.gatewayShare),
        pct(c.othersOnGatewayCore),
        pct(c.benchOnLoadCore),
        pct(c.othersOnLoadCore),
        String(c.attempts),
      ]),
    ]),
  );

  out.push('', 'Targets (gateway on one core)');
  out.push(
    table([['', 'measured', 'target', '', ''], ...checks.map((c) => [c.name, c.measured, c.target, c.pass ? 'PASS' : 'MISS', c.margin])]),
  );

  if (profile) {
    out.push('', `Gateway CPU profile: ${n(profile.totalMs)} ms sampled, ${n(profile.busyMs)} ms not idle (${profile.file})`);
    out.push('  top self time by function:');
    out.push(
      table(
        [['', 'self ms', '% busy', 'where'], ...profile.topFunctions.map((t) => [t.name, n(t.selfMs), n(t.busyShare * 100, 1), t.where])],
        '    ',
      ),
    );
    out.push('  self time by package or source folder:');
    out.push(table([['', 'self ms', '% busy'], ...profile.topGroups.map((t) => [t.name, n(t.selfMs), n(t.busyShare * 100, 1)])], '    '));
    out.push("  total time (callees included) of the gateway's own functions:");
    out.push(
      table(
        [
          ['', 'total ms', '% busy', 'where'],
          ...profile.topOwnInclusive.map((t) => [t.name, n(t.selfMs), n(t.busyShare * 100, 1), t.where]),
        ],
        '    ',
      ),
    );
  }
  return out.join('\n');
}
