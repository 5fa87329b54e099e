import type { ServerResponse } from 'node:http';
import { ConstantBackoff } from 'cockatiel';
import { type ChildHandle, forkIntern } from '../../src/interns/runtime/intern-process.js';
import type { InternRuntimeTuning } from '../../src/interns/runtime/runtime-tuning.js';
import { recordingServer } from '../../src/interns/tools/tools.testing.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import type { TestEngine } from './databases.js';
import { type RunningGateway, startGateway } from './gateway.js';
import { enrolInProgramme } from './intern-world.js';
import { simCatalog } from './sim-gateway.js';

/** One gateway instance of the pair, with the intern processes it forked (live ones are those not yet exited). */
export interface PairedInstance {
  gateway: RunningGateway;
  children: { internId: string; child: ChildHandle; exited: boolean }[];
  /** Interns this instance has a live process for. */
  live(): string[];
}

export interface InternPair {
  a: PairedInstance;
  b: PairedInstance;
  sim: Simulator;
  site: Awaited<ReturnType<typeof recordingServer>>;
  webhook: Awaited<ReturnType<typeof recordingServer>>;
  /** Requests for /slow, unanswered until release(). */
  held: ServerResponse[];
  release(): void;
  close(): Promise<void>;
}

/**
 * Two gateway instances on one database (and one Redis when redisUrl is
 * given), as behind a load balancer, with the intern runtime forking real
 * processes, the simulator as the intern's model (`sim/agent`) and a site
 * whose /slow page is held until release().
 */
export async function startInternPair(
  engine: TestEngine,
  {
    redisUrl,
    tuning = {},
    tuningOfA = {},
  }: { redisUrl?: string; tuning?: InternRuntimeTuning /** A's own, over `tuning`. */; tuningOfA?: InternRuntimeTuning } = {},
): Promise<InternPair> {
  const held: ServerResponse[] = [];
  const release = () =>
    held.splice(0).forEach((res) => {
      res.end('slow page body');
    });
  const sim = await startSimulator();
  const site = await recordingServer((req, res) => (req.url === '/slow' ? held.push(res) : res.end('quick page body')));
  const webhook = await recordingServer((_req, res) => res.writeHead(204).end());
  const catalog = simCatalog(
    sim.url,
    ['alpha'],
    [
      { id: 'sim/agent', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
      { id: 'sim/slow-agent', endpoints: [{ provider: 'alpha', upstream: 'sim-model@latency=1500' }] },
    ],
  );
  const instance = async (own: InternRuntimeTuning, databaseUrl?: string): Promise<PairedInstance> => {
    const children: PairedInstance['children'] = [];
    const spawn = (internId: string) => {
      const child = forkIntern(internId);
      const entry = { internId, child, exited: false };
      child.on('exit', () => {
        entry.exited = true;
      });
      children.push(entry);
      return child;
    };
    const gateway = await startGateway(engine, {
      catalog,
      plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
      internRuntime: { tickMs: 100, leaseMs: 3_000, backoff: new ConstantBackoff(100), spawn, ...tuning, ...own },
      ...(databaseUrl ? { databaseUrl } : {}),
      ...(redisUrl ? { redisUrl } : {}),
    });
    return { gateway, children, live: () => children.filter((c) => !c.exited).map((c) => c.internId) };
  };
  const a = await instance(tuningOfA);
  const b = await instance({}, a.gateway.store.url);
  await enrolInProgramme(a.gateway);
  return {
    a,
    b,
    sim,
    site,
    webhook,
    held,
    release,
    async close() {
      release();
      await b.gateway.close();
      await a.gateway.close();
      await sim.close();
      await site.close();
      await webhook.close();
    },
  };
}
