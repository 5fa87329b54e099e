import type { LoadOutput, Mark } from './load-main.js';
import type { ClosedLoopResult, ClosedLoopSpec, OpenLoopResult, OpenLoopSpec, StreamResult, StreamSpec } from './load-types.js';
import { type Measured, measured } from './measure.js';
import type { Pinning } from './pinning.js';
import type { Processes } from './processes.js';
import { waitForQuietMachine } from './quiet-machine.js';
import { chatTarget, type Route, streamTarget } from './routes.js';
import { runLoad } from './run-load.js';
import type { BenchSettings } from './settings.js';
import { type SoakResult, soak } from './soak.js';
import { drainAfter, WORKSPACE_CASES, type WorkspaceRounds, type WorkspaceRoutes } from './workspace-cases.js';

export interface RouteResults {
  throughput: Measured<ClosedLoopResult>;
  openLoop: Measured<OpenLoopResult>;
  streaming: Measured<StreamResult>;
}

export interface PhaseResults {
  direct: RouteResults;
  gateway: RouteResults;
  /** The floor (bare-proxy.ts): no streams, which it does not relay, and no soak. */
  bareProxy: Pick<RouteResults, 'throughput' | 'openLoop'>;
  /** The gateway through keys of workspaces with nothing set, with three budgets, with three destinations (workspace-cases.ts). */
  workspaces: WorkspaceRounds;
  soak: Measured<SoakResult>;
}

export interface PhaseContext {
  processes: Processes;
  pinning: Pinning;
  settings: BenchSettings;
  pids: { gateway: number; sim: number; bareProxy: number };
  /** Where the gateway's live-heap probe writes (servers.ts). */
  liveHeapFile: string;
  direct: Route;
  gateway: Route;
  bareProxy: Route;
  /** The gateway route through keys of workspaces with nothing set, with budgets, with destinations (workspace-cases.ts). */
  workspaces: WorkspaceRoutes;
}

const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);
const cores = (others: number | undefined) => (others === undefined ? '?' : `${Math.round(others * 100)}% of a core`);

/**
 * One measured phase. It starts once the machine is quiet (which also lets the
 * previous phase's sockets, timers and garbage settle); if other processes
 * still took more than `maxOthers` of the CPU meanwhile, it runs again, up to
 * `retries` times, and the least disturbed attempt is kept.
 */
type LoadRun<R> = (onMark: (mark: Mark) => void) => Promise<LoadOutput<R>>;

async function phase<R>(
  ctx: PhaseContext,
  label: string,
  run: LoadRun<R>,
  server: 'gateway' | 'bareProxy' | 'direct' = 'gateway',
): Promise<Measured<R>> {
  const { settings: s } = ctx;
  // The server on the gateway's core is measured as "the gateway" of the phase.
  const pids = { gateway: ctx.pids[server === 'bareProxy' ? 'bareProxy' : 'gateway'], sim: ctx.pids.sim };
  // The gateway's own event-loop and GC figures, when the phase goes through it.
  const metricsOrigin = server === 'gateway' ? ctx.gateway.origin : undefined;
  let best: Measured<R> | undefined;
  for (let attempt = 1; attempt <= s.retries + 1; attempt++) {
    await waitForQuietMachine(s.quietWaitSeconds, Object.values(ctx.pids), progress);
    progress(attempt === 1 ? label : `${label} (attempt ${attempt})`);
    const m = await measured(pids, run, metricsOrigin);
    if (best === undefined || (m.others ?? 0) < (best.others ?? 0)) best = m;
    best.attempts = attempt;
    if ((m.others ?? 0) <= s.maxOthers) break;
    progress(`  disturbed: other processes used ${cores(m.others)}`);
  }
  return best!;
}

/**
 * Each phase runs direct, then through the gateway, back to back, so the two
 * figures of a row see the same machine state; the soak comes last and only
 * through the gateway, whose memory it watches.
 */
export async function runPhases(ctx: PhaseContext): Promise<PhaseResults> {
  const { processes, pinning, settings: s } = ctx;
  const closedSpec = (route: Route, seconds: number, warmupSeconds: number): ClosedLoopSpec => ({
    target: chatTarget(route),
    connections: s.concurrency,
    seconds,
    warmupSeconds,
  });
  const openSpec = (route: Route, seconds: number): OpenLoopSpec => ({
    target: chatTarget(route),
    rate: s.openLoopRate,
    seconds,
    connections: s.openLoopConnections,
    warmupSeconds: s.loadWarmupSeconds,
  });
  const streamSpec = (route: Route, streams: number, warmupStreams: number): StreamSpec => ({
    target: streamTarget(route),
    streams,
    concurrency: s.streamConcurrency,
    warmupStreams,
  });
  type RunOn<R> = (route: Route, onMark: (mark: Mark) => void) => Promise<LoadOutput<R>>;
  const both = async <R>(label: string, run: RunOn<R>) => {
    const direct = await phase(ctx, `${label}: direct`, (onMark) => run(ctx.direct, onMark), 'direct');
    const gateway = await phase(ctx, `${label}: gateway`, (onMark) => run(ctx.gateway, onMark));
    return { direct, gateway };
  };
  const all = async <R>(label: string, run: RunOn<R>) => ({
    ...(await both(label, run)),
    bareProxy: await phase(ctx, `${label}: bare proxy`, (onMark) => run(ctx.bareProxy, onMark), 'bareProxy'),
  });

  // Warm-up: the servers' JIT, connection pools, the gateway's key cache; the results are thrown away.
  for (const route of [ctx.direct, ctx.gateway]) {
    progress(`warm-up (${s.warmupSeconds} s): ${route.name}`);
    await runLoad(processes, pinning, 'load-closed.ts', closedSpec(route, s.warmupSeconds, 0));
    await runLoad(processes, pinning, 'load-stream.ts', streamSpec(route, 2 * s.streamConcurrency, 0));
  }
  progress(`warm-up (${s.warmupSeconds} s): ${ctx.bareProxy.name}`);
  await runLoad(processes, pinning, 'load-closed.ts', closedSpec(ctx.bareProxy, s.warmupSeconds, 0));

  const throughput = await all(`throughput, concurrency ${s.concurrency} (${s.phaseSeconds} s)`, (route, onMark) =>
    runLoad(processes, pinning, 'load-closed.ts', closedSpec(route, s.phaseSeconds, s.loadWarmupSeconds), onMark),
  );
  const openLoop = await all(`open loop, ${s.openLoopRate} requests/s (${s.phaseSeconds} s)`, (route, onMark) =>
    runLoad(processes, pinning, 'load-open.ts', openSpec(route, s.phaseSeconds), onMark),
  );
  const streaming = await both(`streaming, ${s.streams} streams, ${s.streamConcurrency} at a time`, (route, onMark) =>
    runLoad(processes, pinning, 'load-stream.ts', streamSpec(route, s.streams, s.streamConcurrency), onMark),
  );

  // Budgets and destinations on the key's workspace against nothing, in the same run: round after round, the order
  // turning so that no case always meets the warmer or the busier machine; read as ratios of the medians. After a
  // destinations round the sender's backlog is waited out (and timed), so that it never runs into another case's round.
  const workspaces: WorkspaceRounds = { cases: { none: [], budgets: [], destinations: [] }, drains: [] };
  for (let round = 0; round < s.workspaceRounds; round++) {
    const turn = round % WORKSPACE_CASES.length;
    for (const c of [...WORKSPACE_CASES.slice(turn), ...WORKSPACE_CASES.slice(0, turn)]) {
      const label = `workspace ${c}, round ${round + 1} of ${s.workspaceRounds}, concurrency ${s.concurrency} (${s.phaseSeconds} s)`;
      const measuredRound = await phase(ctx, label, (onMark) =>
        runLoad(processes, pinning, 'load-closed.ts', closedSpec(ctx.workspaces.routes[c], s.phaseSeconds, s.loadWarmupSeconds), onMark),
      );
      workspaces.cases[c].push(measuredRound);
      if (c === 'destinations') workspaces.drains.push(await drainAfter(ctx.workspaces.backlog));
    }
  }

  // Not retried: a minute is long to repeat, and memory growth does not depend on who else is running.
  await waitForQuietMachine(s.quietWaitSeconds, Object.values(ctx.pids), progress);
  progress(`memory soak through the gateway, ${s.openLoopRate} requests/s (${s.soakSeconds} s)`);
  const soakResult = await measured(ctx.pids, (onMark) =>
    soak(processes, pinning, ctx.pids.gateway, ctx.liveHeapFile, openSpec(ctx.gateway, s.soakSeconds), onMark),
  );

  const pick = (name: 'direct' | 'gateway'): RouteResults => ({
    throughput: throughput[name],
    openLoop: openLoop[name],
    streaming: streaming[name],
  });
  return {
    direct: pick('direct'),
    gateway: pick('gateway'),
    bareProxy: { throughput: throughput.bareProxy, openLoop: openLoop.bareProxy },
    workspaces,
    soak: soakResult,
  };
}
