// The admission step of a chat alone, in one process, for two source trees (before and after a change): what the
// reservation (counting the prompt, holding, settling) costs a request of a key without a limit and of a key with
// one, each in a workspace without budgets and in one with three. A tree without workspace budgets holds nothing for
// them. See bench/README.md ("Spend admission").
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuNow } from './load-main.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: '.' },
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
  },
});
if (!values.before) {
  process.stdout.write(
    'usage: npx tsx bench/spend-admission-cost.ts --before <checkout> [--after <checkout>] [--requests 20000] [--rounds 5]\n',
  );
  process.exit(2);
}
const requests = Number(values.requests);
const rounds = Number(values.rounds);
type Side = 'before' | 'after';
const CALLERS = ['no limit', 'limit', 'budgets', 'limit + budgets'] as const;
type Caller = (typeof CALLERS)[number];

/** The chat whose admission is measured: the benchmark's own request. */
const REQUEST = { model: 'bench/sim', messages: [{ role: 'user', content: 'Hello from the benchmark' }] };
const ENDPOINT = { provider: 'sim', upstreamModel: 'sim-model', pricing: { prompt: 0.000001, completion: 0.000002 } };

/** The planned run a request is admitted with (both trees build one per request before admission). */
interface PlannedRun {
  id: string;
  request: typeof REQUEST;
  attempts: { modelId: string; endpoint: typeof ENDPOINT }[];
  startedAt: number;
}

/** One admission of a request of the caller's key, as the tree at `root` does it. */
type Admit = (caller: Caller, run: PlannedRun) => Promise<void>;

async function admission(root: string, side: Side, dir: string): Promise<{ admit: Admit; close(): Promise<void> }> {
  const load = (path: string) => import(pathToFileURL(join(root, 'src', path)).href);
  const { openStore } = await load('store/database.ts');
  const { migrateToLatest } = await load('store/migrate.ts');
  const { bootstrap } = await load('accounts/bootstrap.ts');
  const { createApiKey } = await load('accounts/create-api-key.ts');
  const { GuardrailCache } = await load('guardrails/guardrail-cache.ts');
  const { loadOrganizationGuardrails } = await load('store/repositories/guardrails.ts');
  const { spendGuard } = await load('accounting/spend-guard.ts');
  const { chatRunCeiling } = await load('chat/reserve-chat-run.ts');
  const { NO_RESERVATION } = await load('accounting/reservations.ts');
  const store = openStore(`sqlite:${join(dir, `${side}.sqlite`)}`);
  await migrateToLatest(store);
  const clock = () => new Date();
  const now = clock().toISOString();
  const { organizationId } = await bootstrap(store.db, clock, undefined);
  const plain = await store.db
    .selectFrom('workspaces')
    .select('id')
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  // A second workspace with three budgets no run reaches (the table exists in both trees: migration 0032).
  const budgeted = 'bench-budgeted';
  await store.db
    .insertInto('workspaces')
    .values({ id: budgeted, organization_id: organizationId, name: 'Budgeted', slug: 'budgeted', is_default: 0, created_at: now })
    .execute();
  await store.db
    .insertInto('workspace_budgets')
    .values(
      (
        [
          ['daily', 1_000_000],
          ['monthly', 10_000_000],
          ['lifetime', 1_000_000_000],
        ] as const
      ).map(([reset_interval, limit_usd]) => ({
        id: `bench-${reset_interval}`,
        workspace_id: budgeted,
        reset_interval,
        limit_usd,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  const key = async (workspaceId: string, limit: number | null) =>
    (await createApiKey(store.db, { organizationId, workspaceId, name: `bench ${limit}`, limit }, now)).row;
  const keys: Record<Caller, unknown> = {
    'no limit': await key(plain.id, null),
    limit: await key(plain.id, 1_000_000_000),
    budgets: await key(budgeted, null),
    'limit + budgets': await key(budgeted, 1_000_000_000),
  };
  const guardrails = new GuardrailCache((id: string) => loadOrganizationGuardrails(store.db, id));
  // As app.ts wires it, in a tree that has workspace budgets.
  const budgetCache = existsSync(join(root, 'src/accounting/workspace-budget-cache.ts'))
    ? await (async () => {
        const { WorkspaceBudgetCache } = await load('accounting/workspace-budget-cache.ts');
        const { organizationWorkspaceBudgets } = await load('store/repositories/workspace-budgets.ts');
        const cache = new WorkspaceBudgetCache((id: string) => organizationWorkspaceBudgets(store.db, id));
        return { workspaceBudgets: (organization: string, workspace: string) => cache.get(organization, workspace) };
      })()
    : {};
  const spend = spendGuard(store.db, guardrails, clock, budgetCache);
  const catalog = { getModel: () => undefined };
  return {
    admit: async (caller, run) => {
      const reservation = await spend.reserve(keys[caller], () => chatRunCeiling({ catalog }, run), { id: run.id });
      // As settleRun: a run without a reservation (a key without limits) carries none to settle.
      if (reservation !== NO_RESERVATION) await reservation.settle(0.00001);
    },
    close: () => store.close(),
  };
}

/** CPU µs per admission over `requests` of them, one after another. */
async function measure(admit: Admit, caller: Caller): Promise<number> {
  const start = cpuNow();
  for (let i = 0; i < requests; i++)
    await admit(caller, {
      id: `gen-${i}`,
      request: REQUEST,
      attempts: [{ modelId: 'bench/sim', endpoint: ENDPOINT }],
      startedAt: Date.now(),
    });
  return ((cpuNow() - start) / requests) * 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'spend-admission-cost-'));
try {
  const sides: Record<Side, Awaited<ReturnType<typeof admission>>> = {
    before: await admission(resolve(values.before), 'before', dir),
    after: await admission(resolve(values.after), 'after', dir),
  };
  const noSamples = () => Object.fromEntries(CALLERS.map((caller) => [caller, []])) as unknown as Record<Caller, number[]>;
  const samples: Record<Side, Record<Caller, number[]>> = { before: noSamples(), after: noSamples() };
  // Warm-up: JIT, the caches, the tokenizer's tables.
  for (const side of ['before', 'after'] as const) for (const caller of CALLERS) await measure(sides[side].admit, caller);
  for (let round = 0; round < rounds; round++) {
    const order: Side[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    for (const side of order) for (const caller of CALLERS) samples[side][caller].push(await measure(sides[side].admit, caller));
  }
  await sides.before.close();
  await sides.after.close();
  const lines = ['| key | before µs CPU/admission | after µs CPU/admission | after/before |', '|---|---|---|---|'];
  for (const caller of CALLERS) {
    const [b, a] = [median(samples.before[caller]), median(samples.after[caller])];
    lines.push(`| ${caller} | ${b.toFixed(2)} | ${a.toFixed(2)} | ${(a / b).toFixed(3)} |`);
  }
  process.stdout.write(`medians of ${rounds} rounds of ${requests} admissions, SQLite\n${lines.join('\n')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
