import type { Figures } from './figures.js';

/** The targets for the gateway on one core. */
export const TARGETS = {
  minRps: 5_000,
  maxAddedP50Ms: 0.3,
  maxAddedP99Ms: 1,
  maxFirstByteOverheadMs: 1,
  /** "Flat": the live heap after a full collection at the soak's end at most 5% above its start (the RSS floor without the probe). */
  maxMemoryDrift: 0.05,
};

export interface TargetCheck {
  name: string;
  measured: string;
  target: string;
  pass: boolean;
  /** By how much it missed (or the headroom when it passes). */
  margin: string;
}

const fmt = (n: number, digits: number) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function atLeast(name: string, measured: number, limit: number, unit: string, digits: number): TargetCheck {
  const pass = measured >= limit;
  const gap = Math.abs(measured - limit);
  return {
    name,
    measured: `${fmt(measured, digits)} ${unit}`,
    target: `≥ ${fmt(limit, digits)} ${unit}`,
    pass,
    margin: pass ? `${fmt(gap, digits)} ${unit} to spare` : `short by ${fmt(gap, digits)} ${unit} (${fmt((gap / limit) * 100, 0)}%)`,
  };
}

function atMost(name: string, measured: number, limit: number, unit: string, digits: number): TargetCheck {
  const pass = measured <= limit;
  const gap = Math.abs(measured - limit);
  return {
    name,
    measured: `${fmt(measured, digits)} ${unit}`,
    target: `≤ ${fmt(limit, digits)} ${unit}`,
    pass,
    margin: pass ? `${fmt(gap, digits)} ${unit} to spare` : `over by ${fmt(gap, digits)} ${unit} (${fmt((gap / limit) * 100, 0)}%)`,
  };
}

export function checkTargets(f: Figures): TargetCheck[] {
  return [
    atLeast('throughput, concurrency 64', f.gatewayRps, TARGETS.minRps, 'req/s', 0),
    atMost('added p50 at 1,000 req/s', f.addedP50Ms, TARGETS.maxAddedP50Ms, 'ms', 3),
    atMost('added p99 at 1,000 req/s', f.addedP99Ms, TARGETS.maxAddedP99Ms, 'ms', 3),
    atMost('stream first-byte overhead (p50)', f.firstByteOverheadP50Ms, TARGETS.maxFirstByteOverheadMs, 'ms', 3),
    atMost(`memory growth over the soak (${f.memoryMeasure})`, f.memoryDrift * 100, TARGETS.maxMemoryDrift * 100, '%', 1),
  ];
}
