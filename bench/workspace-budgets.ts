import type { ClosedLoopResult } from './load-types.js';
import { type Measured, microsPerRequest } from './measure.js';
import { MANAGEMENT_KEY, type Route } from './routes.js';

/** Three budgets no run reaches, so that every request of the workspace's keys is held against each and none is refused. */
const BUDGETS = [
  ['daily', 1_000_000],
  ['weekly', 10_000_000],
  ['monthly', 100_000_000],
] as const;

async function manage(origin: string, method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A workspace of its own and a key in it, without a limit: what differs between the two routes is the workspace's budgets alone. */
async function workspaceKey(origin: string, slug: string): Promise<{ workspaceId: string; key: string }> {
  const workspace = (await manage(origin, 'POST', '/workspaces', { name: slug, slug })).data as { id: string };
  const made = await manage(origin, 'POST', '/keys', { name: slug, workspace_id: workspace.id });
  return { workspaceId: workspace.id, key: made.key as string };
}

/** The gateway route through a key of a workspace without budgets, and through one of a workspace with three. */
export async function budgetRoutes(gateway: Route): Promise<Record<BudgetCase, Route>> {
  const none = await workspaceKey(gateway.origin, 'bench-no-budgets');
  const budgets = await workspaceKey(gateway.origin, 'bench-budgets');
  for (const [interval, limit] of BUDGETS)
    await manage(gateway.origin, 'PUT', `/workspaces/${budgets.workspaceId}/budgets/${interval}`, { limit_usd: limit });
  return {
    none: { ...gateway, authorization: `Bearer ${none.key}` },
    budgets: { ...gateway, authorization: `Bearer ${budgets.key}` },
  };
}

export const BUDGET_CASES = ['none', 'budgets'] as const;
export type BudgetCase = (typeof BUDGET_CASES)[number];

/** Closed-loop rounds of each case, their order alternating round by round. */
export type BudgetRounds = Record<BudgetCase, Measured<ClosedLoopResult>[]>;

export interface BudgetFigures {
  rounds: number;
  rps: Record<BudgetCase, number>;
  cpuMicros: Record<BudgetCase, number | undefined>;
  p50Ms: Record<BudgetCase, number>;
  /** With budgets over without, medians of the rounds: 1.0 is no slower. */
  rpsRatio: number;
  cpuRatio: number | undefined;
  p50Ratio: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function budgetFigures(r: BudgetRounds): BudgetFigures {
  const of = (pick: (m: Measured<ClosedLoopResult>) => number | undefined) => {
    const values = (c: BudgetCase) => r[c].map(pick);
    const med = (c: BudgetCase) => (values(c).some((x) => x === undefined) ? undefined : median(values(c) as number[]));
    return { none: med('none'), budgets: med('budgets') };
  };
  const rps = of((m) => m.result.requestsPerSecond) as Record<BudgetCase, number>;
  const cpuMicros = of((m) => microsPerRequest(m.gatewayCpuSeconds, m.result.requests));
  const p50Ms = of((m) => m.result.latencyMs.p50) as Record<BudgetCase, number>;
  return {
    rounds: r.none.length,
    rps,
    cpuMicros,
    p50Ms,
    rpsRatio: rps.budgets / rps.none,
    cpuRatio: cpuMicros.none === undefined || cpuMicros.budgets === undefined ? undefined : cpuMicros.budgets / cpuMicros.none,
    p50Ratio: p50Ms.budgets / p50Ms.none,
  };
}
