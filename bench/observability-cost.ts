// What the operations cost a request, measured alone: the CPU time of a Fastify app answering a chat-shaped
// route through app.inject(), without the observability hooks and with them (metrics, the run observer's
// attempt and settlement, the access log written or skipped by the log level), rounds alternating, in one
// process. It resolves what a loaded machine's noise hides from the closed-loop A/B. See bench/README.md.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { pino } from 'pino';
import type { Endpoint } from '../src/catalog/types.js';
import type { ChatRun } from '../src/chat/run.js';
import type { ObservedEnd } from '../src/chat/run-observer.js';
import { Observability } from '../src/observability/observability.js';
import type { Attempt } from '../src/routing/plan-attempts.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' } } });
const requests = Number(values.requests);
const rounds = Number(values.rounds);

const endpoint = {
  provider: 'alpha',
  upstreamModel: 'sim-model',
  pricing: { prompt: 0.000001, completion: 0.000002 },
} as unknown as Endpoint;
const attempt: Attempt<Endpoint> = { modelId: 'sim/fast', endpoint } as Attempt<Endpoint>;
const usage = { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32 };

type Variant = 'bare' | 'observed, log at warn' | 'observed, access log written';

/** The chat route's shape: a run that makes one attempt and settles, with or without an observer. */
async function buildApp(variant: Variant): Promise<FastifyInstance> {
  const logger = pino(
    { level: variant === 'observed, access log written' ? 'info' : 'warn' },
    pino.destination({ dest: '/dev/null', sync: true }),
  );
  // As app.ts makes it: Fastify's own line per request is off.
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, logController: new LogController({ disableRequestLogging: true }) });
  const observability = variant === 'bare' ? undefined : new Observability();
  observability?.install(app);
  const runs = observability?.runs;
  app.post('/api/v1/chat/completions', async (request) => {
    const run = {
      id: `gen-${request.id}`,
      requestId: request.id,
      task: 'chat',
      request: { model: 'sim/fast' },
      routing: { planned: [] },
    } as unknown as ChatRun;
    const answer = runs ? await runs.attempt(run, attempt, async () => ({ ok: true })) : { ok: true };
    const end: ObservedEnd = {
      status: 'success',
      streamed: false,
      attempt,
      outcomes: [],
      usage,
      finishReason: 'stop',
      upstreamId: 'chatcmpl-1',
    };
    runs?.settled(run, end, 0.000052);
    return answer;
  });
  await app.ready();
  return app;
}

/** CPU µs per request over `requests` injected one after another. */
async function measure(app: FastifyInstance): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    await app.inject({ method: 'POST', url: '/api/v1/chat/completions', payload: { model: 'sim/fast' } });
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

const variants: Variant[] = ['bare', 'observed, log at warn', 'observed, access log written'];
const apps = Object.fromEntries(await Promise.all(variants.map(async (v) => [v, await buildApp(v)] as const))) as Record<
  Variant,
  FastifyInstance
>;
const samples: Record<Variant, number[]> = { bare: [], 'observed, log at warn': [], 'observed, access log written': [] };
const started = performance.now();
for (const app of Object.values(apps)) await measure(app); // warm-up
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? variants : [...variants].reverse();
  for (const variant of order) samples[variant].push(await measure(apps[variant]));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const bare = median(samples.bare);
const lines = ['| variant | µs CPU per request (median) | added to bare |', '|---|---|---|'];
for (const variant of variants)
  lines.push(`| ${variant} | ${median(samples[variant]).toFixed(1)} | ${(median(samples[variant]) - bare).toFixed(1)} |`);
process.stdout.write(
  `${rounds} rounds of ${requests} injected requests each, ${((performance.now() - started) / 1000).toFixed(0)} s\n${lines.join('\n')}\n`,
);
for (const app of Object.values(apps)) await app.close();
