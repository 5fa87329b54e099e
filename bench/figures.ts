import type { LedgerCostResult } from './load-types.js';
import { foreignShare, type Measured, microsPerRequest } from './measure.js';
import type { PhaseResults } from './phases.js';
import { GATEWAY_CORE, LOAD_CORE } from './pinning.js';
import { WORKSPACE_CASES, type WorkspaceFigures, workspaceFigures } from './workspace-cases.js';

/** The headline figures, derived from the raw phase results: what the issue asks the run to print. */
export interface Figures {
  directRps: number;
  gatewayRps: number;
  /** Gateway throughput as a fraction of the direct one. */
  throughputRatio: number;
  /** CPU the gateway used per second of the throughput phase: near 1.0 means its core was the bottleneck. */
  gatewayCoreBusy: number | undefined;
  addedP50Ms: number;
  addedP90Ms: number;
  addedP99Ms: number;
  firstByteOverheadP50Ms: number;
  firstByteOverheadP99Ms: number;
  wholeStreamOverheadP50Ms: number;
  /** Gateway CPU µs per request, per phase. */
  gatewayCpuMicros: { throughput?: number; openLoop?: number; streaming?: number; soak?: number };
  /** Simulator CPU µs per request in the direct phases: the upstream's own share, for scale. */
  simCpuMicros: { throughput?: number; openLoop?: number };
  /** The bare proxy's requests/s and CPU µs per request on the gateway's core: the floor under any Node gateway. */
  bareProxyRps: number;
  bareProxyCpuMicros: { throughput?: number; openLoop?: number };
  /** The SQLite ledger's CPU per row on the gateway's core, measured apart (ledger-cost.ts): what the gateway adds that the bare proxy does not. */
  ledger: LedgerCostResult;
  gatewayPeakRssMb: number | undefined;
  /** The request path with three budgets, and with three destinations, on the key's workspace against nothing set. */
  workspaces: WorkspaceFigures;
  /** Growth over the soak of the live heap after a full collection, or of the RSS floor when the probe gave nothing (see SoakResult). */
  memoryDrift: number;
  memoryMeasure: 'live heap' | 'RSS floor';
  /** How busy the two cores were in each gateway phase, and how much of the gateway's core other processes took. */
  cores: CoreUse[];
}

export interface CoreUse {
  phase: string;
  gatewayShare: number | undefined;
  othersOnGatewayCore: number | undefined;
  /** The simulator and the load process together. */
  benchOnLoadCore: number | undefined;
  othersOnLoadCore: number | undefined;
  attempts: number;
}

function coreUse(phase: string, m: Measured<unknown>): CoreUse {
  return {
    phase,
    gatewayShare: m.gatewayCpuSeconds === undefined ? undefined : m.gatewayCpuSeconds / m.wallSeconds,
    othersOnGatewayCore: foreignShare(m, GATEWAY_CORE, [m.gatewayCpuSeconds]),
    benchOnLoadCore: m.simCpuSeconds === undefined ? undefined : (m.simCpuSeconds + m.loadCpuSeconds) / m.wallSeconds,
    othersOnLoadCore: foreignShare(m, LOAD_CORE, [m.simCpuSeconds, m.loadCpuSeconds]),
    attempts: m.attempts,
  };
}

export function deriveFigures(r: PhaseResults, gatewayPeakRssMb: number | undefined, ledger: LedgerCostResult): Figures {
  const { direct, gateway, bareProxy } = r;
  const tp = gateway.throughput;
  return {
    directRps: direct.throughput.result.requestsPerSecond,
    gatewayRps: tp.result.requestsPerSecond,
    throughputRatio: tp.result.requestsPerSecond / direct.throughput.result.requestsPerSecond,
    gatewayCoreBusy: tp.gatewayCpuSeconds === undefined ? undefined : tp.gatewayCpuSeconds / tp.result.seconds,
    addedP50Ms: gateway.openLoop.result.latency.p50 - direct.openLoop.result.latency.p50,
    addedP90Ms: gateway.openLoop.result.latency.p90 - direct.openLoop.result.latency.p90,
    addedP99Ms: gateway.openLoop.result.latency.p99 - direct.openLoop.result.latency.p99,
    firstByteOverheadP50Ms: gateway.streaming.result.firstByte.p50 - direct.streaming.result.firstByte.p50,
    firstByteOverheadP99Ms: gateway.streaming.result.firstByte.p99 - direct.streaming.result.firstByte.p99,
    wholeStreamOverheadP50Ms: gateway.streaming.result.whole.p50 - direct.streaming.result.whole.p50,
    gatewayCpuMicros: {
      throughput: microsPerRequest(tp.gatewayCpuSeconds, tp.result.requests),
      openLoop: microsPerRequest(gateway.openLoop.gatewayCpuSeconds, gateway.openLoop.result.completed),
      streaming: microsPerRequest(gateway.streaming.gatewayCpuSeconds, gateway.streaming.result.completed),
      soak: microsPerRequest(r.soak.gatewayCpuSeconds, r.soak.result.load.completed),
    },
    simCpuMicros: {
      throughput: microsPerRequest(direct.throughput.simCpuSeconds, direct.throughput.result.requests),
      openLoop: microsPerRequest(direct.openLoop.simCpuSeconds, direct.openLoop.result.completed),
    },
    bareProxyRps: bareProxy.throughput.result.requestsPerSecond,
    bareProxyCpuMicros: {
      throughput: microsPerRequest(bareProxy.throughput.gatewayCpuSeconds, bareProxy.throughput.result.requests),
      openLoop: microsPerRequest(bareProxy.openLoop.gatewayCpuSeconds, bareProxy.openLoop.result.completed),
    },
    ledger,
    gatewayPeakRssMb,
    workspaces: workspaceFigures(r.workspaces),
    memoryDrift: r.soak.result.liveHeap?.drift ?? r.soak.result.floorDrift,
    memoryMeasure: r.soak.result.liveHeap ? 'live heap' : 'RSS floor',
    cores: [
      coreUse('direct throughput', direct.throughput),
      coreUse('direct open loop', direct.openLoop),
      coreUse('direct streaming', direct.streaming),
      coreUse('bare proxy throughput', bareProxy.throughput),
      coreUse('bare proxy open loop', bareProxy.openLoop),
      coreUse('gateway throughput', tp),
      coreUse('gateway open loop', gateway.openLoop),
      coreUse('gateway streaming', gateway.streaming),
      ...WORKSPACE_CASES.flatMap((c) => r.workspaces.cases[c].map((m, i) => coreUse(`gateway, workspace ${c}, round ${i + 1}`, m))),
      coreUse('gateway soak', r.soak),
    ],
  };
}
