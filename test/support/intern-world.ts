import type { ServerResponse } from 'node:http';
import { ConstantBackoff } from 'cockatiel';
import { INTERN_PROGRAMME_TOPIC } from '../../src/interns/flag-cache.js';
import type { InternRuntimeTuning } from '../../src/interns/runtime/runtime-tuning.js';
import { recordingServer } from '../../src/interns/tools/tools.testing.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { enroll } from '../../src/store/repositories/interns.js';
import type { TestEngine } from './databases.js';
import { type RunningGateway, startGateway } from './gateway.js';
import { simCatalog } from './sim-gateway.js';

type RecordingServer = Awaited<ReturnType<typeof recordingServer>>;

/**
 * What an intern run needs to be exercised for real: a gateway with the
 * intern runtime whose `sim/agent` model is the simulator's, a site on
 * loopback (allowed to the runtime) with a quick page and a /slow one held
 * open until release() so a run can be caught mid-tool-call, and a webhook
 * that records the intern's reports.
 */
export interface InternWorld {
  sim: Simulator;
  site: RecordingServer;
  webhook: RecordingServer;
  gateway: RunningGateway;
  /** Requests for /slow, unanswered until release(). */
  held: ServerResponse[];
  release(): void;
  close(): Promise<void>;
}

export async function startInternWorld(engine: TestEngine, runtime: InternRuntimeTuning = {}): Promise<InternWorld> {
  const held: ServerResponse[] = [];
  const release = () =>
    held.splice(0).forEach((res) => {
      res.end('slow page body');
    });
  const sim = await startSimulator();
  const site = await recordingServer((req, res) => (req.url === '/slow' ? held.push(res) : res.end('quick page body')));
  const webhook = await recordingServer((_req, res) => res.writeHead(204).end());
  const gateway = await startGateway(engine, {
    catalog: simCatalog(sim.url, ['alpha'], [{ id: 'sim/agent', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] }]),
    plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
    internRuntime: { tickMs: 100, leaseMs: 3_000, backoff: new ConstantBackoff(100), ...runtime },
  });
  return {
    sim,
    site,
    webhook,
    gateway,
    held,
    release,
    async close() {
      release();
      await gateway.close();
      await sim.close();
      await site.close();
      await webhook.close();
    },
  };
}

/** Puts the gateway's organization in the interns programme and tells the running gateway so. */
export async function enrolInProgramme(gateway: RunningGateway): Promise<void> {
  await enroll(gateway.store.db, gateway.organizationId, new Date().toISOString());
  await gateway.changes.publish(INTERN_PROGRAMME_TOPIC, gateway.organizationId);
}
