import { setTimeout as sleep } from 'node:timers/promises';
import type { ClosedLoopResult } from './load-types.js';
import { type Measured, microsPerRequest } from './measure.js';
import { MANAGEMENT_KEY, type Route } from './routes.js';

/**
 * The request path through keys of three workspaces that differ in one thing each: `none` has nothing set,
 * `budgets` three budgets no run reaches (every request is held against each, none refused), `destinations` the
 * broadcast on and three observability destinations (webhook, OTLP collector, Langfuse) at the simulator's
 * receivers, so that every generation queues three events in the ledger's commit and the sender delivers them.
 */
export const WORKSPACE_CASES = ['none', 'budgets', 'destinations'] as const;
export type WorkspaceCase = (typeof WORKSPACE_CASES)[number];
/** The cases measured against `none`. */
export type ComparedCase = Exclude<WorkspaceCase, 'none'>;

const BUDGETS = [
  ['daily', 1_000_000],
  ['weekly', 10_000_000],
  ['monthly', 100_000_000],
] as const;

async function manage(origin: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A workspace of its own and a key in it, without a limit. */
async function workspaceKey(origin: string, slug: string): Promise<{ workspaceId: string; key: string }> {
  const workspace = (await manage(origin, 'POST', '/workspaces', { name: slug, slug })).data as { id: string };
  const made = await manage(origin, 'POST', '/keys', { name: slug, workspace_id: workspace.id });
  return { workspaceId: workspace.id, key: made.key as string };
}

/** The three destinations, as a team would set them up, at the simulator's receivers. */
const destinations = (simOrigin: string) => [
  { type: 'webhook', name: 'bench webhook', config: { url: `${simOrigin}/receivers/webhook/bench` } },
  { type: 'otel-collector', name: 'bench otlp', config: { endpoint: `${simOrigin}/receivers/otlp` } },
  {
    type: 'langfuse',
    name: 'bench langfuse',
    config: { baseUrl: `${simOrigin}/receivers/langfuse`, publicKey: 'pk-lf-bench-0000', secretKey: 'sk-lf-bench-0000' },
  },
];

const DESTINATIONS = destinations('').length;

export interface WorkspaceRoutes {
  routes: Record<WorkspaceCase, Route>;
  /** Events of the destinations workspace not yet delivered (pending, all three destinations). */
  backlog(): Promise<number>;
}

export async function workspaceRoutes(gateway: Route, simOrigin: string): Promise<WorkspaceRoutes> {
  const made = {
    none: await workspaceKey(gateway.origin, 'bench-none'),
    budgets: await workspaceKey(gateway.origin, 'bench-budgets'),
    destinations: await workspaceKey(gateway.origin, 'bench-destinations'),
  };
  for (const [interval, limit] of BUDGETS)
    await manage(gateway.origin, 'PUT', `/workspaces/${made.budgets.workspaceId}/budgets/${interval}`, { limit_usd: limit });
  const broadcasting = made.destinations.workspaceId;
  await manage(gateway.origin, 'PATCH', `/workspaces/${broadcasting}`, { is_observability_broadcast_enabled: true });
  for (const destination of destinations(simOrigin))
    await manage(gateway.origin, 'POST', '/observability/destinations', { ...destination, workspace_id: broadcasting });
  const route = (c: WorkspaceCase): Route => ({ ...gateway, authorization: `Bearer ${made[c].key}` });
  return {
    routes: { none: route('none'), budgets: route('budgets'), destinations: route('destinations') },
    async backlog() {
      const listed = await manage(gateway.origin, 'GET', `/observability/destinations?workspace_id=${broadcasting}`);
      const each = listed.data as { type: string; delivery: { pending: number } }[];
      process.stderr.write(`bench: destinations pending: ${each.map((d) => `${d.type} ${d.delivery.pending}`).join(', ')}\n`);
      return each.reduce((sum, d) => sum + d.delivery.pending, 0);
    },
  };
}

/** How the sender did after a destinations round: what was left when the load stopped, and how long it took to send. */
export interface Drain {
  backlogAtEnd: number;
  /** From the load's end until nothing was pending; undefined when it was not done within the wait. */
  seconds: number | undefined;
}

const DRAIN_WAIT_MS = 120_000;

export async function drainAfter(backlog: () => Promise<number>): Promise<Drain> {
  const started = performance.now();
  const backlogAtEnd = await backlog();
  let left = backlogAtEnd;
  while (left > 0 && performance.now() - started < DRAIN_WAIT_MS) {
    await sleep(1_000);
    left = await backlog();
  }
  return {
    backlogAtEnd,
    seconds: left === 0 ? (performance.now() - started) / 1000 : undefined,
  };
}

/** Closed-loop rounds of each case, their order turning round by round, and the sender's drain after each destinations round. */
export interface WorkspaceRounds {
  cases: Record<WorkspaceCase, Measured<ClosedLoopResult>[]>;
  drains: Drain[];
}

export interface WorkspaceFigures {
  rounds: number;
  rps: Record<WorkspaceCase, number>;
  cpuMicros: Record<WorkspaceCase, number | undefined>;
  p50Ms: Record<WorkspaceCase, number>;
  /** Each case over `none`, medians of the rounds: 1.0 is no slower. */
  ratios: Record<ComparedCase, { rps: number; cpu: number | undefined; p50: number }>;
  /** The slowest drain of the rounds (undefined: one did not finish), and the most left at a round's end. */
  drainSeconds: number | undefined;
  backlogAtEnd: number;
  /**
   * Events a second: what the destinations workspace's load queued (three per request, at the median rate), and what
   * the sender sent once the load stopped (the slowest round's backlog over its drain). Sent below queued means the
   * sender falls behind at full load, and catches up after.
   */
  queuedPerSecond: number;
  sentPerSecond: number | undefined;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function workspaceFigures(r: WorkspaceRounds): WorkspaceFigures {
  const of = (pick: (m: Measured<ClosedLoopResult>) => number | undefined) => {
    const med = (c: WorkspaceCase) => {
      const values = r.cases[c].map(pick);
      return values.some((x) => x === undefined) ? undefined : median(values as number[]);
    };
    return { none: med('none'), budgets: med('budgets'), destinations: med('destinations') };
  };
  const rps = of((m) => m.result.requestsPerSecond) as Record<WorkspaceCase, number>;
  const cpuMicros = of((m) => microsPerRequest(m.gatewayCpuSeconds, m.result.requests));
  const p50Ms = of((m) => m.result.latencyMs.p50) as Record<WorkspaceCase, number>;
  const ratio = (c: ComparedCase) => ({
    rps: rps[c] / rps.none,
    cpu: cpuMicros.none === undefined || cpuMicros[c] === undefined ? undefined : cpuMicros[c] / cpuMicros.none,
    p50: p50Ms[c] / p50Ms.none,
  });
  const seconds = r.drains.map((d) => d.seconds);
  const rates = r.drains.map((d) => (d.seconds === undefined ? undefined : d.backlogAtEnd / Math.max(d.seconds, 0.001)));
  return {
    rounds: r.cases.none.length,
    rps,
    cpuMicros,
    p50Ms,
    ratios: { budgets: ratio('budgets'), destinations: ratio('destinations') },
    drainSeconds: seconds.some((s) => s === undefined) ? undefined : Math.max(0, ...(seconds as number[])),
    backlogAtEnd: Math.max(0, ...r.drains.map((d) => d.backlogAtEnd)),
    queuedPerSecond: rps.destinations * DESTINATIONS,
    sentPerSecond: rates.some((rate) => rate === undefined) ? undefined : Math.min(...(rates as number[])),
  };
}
