// `npm run bench`: the simulator, the gateway and the load in separate processes; see bench/README.md.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkChat, checkRoute } from './check-route.js';
import { ensureBuilt } from './ensure-built.js';
import { deriveFigures } from './figures.js';
import { runPhases } from './phases.js';
import { detectPinning, GATEWAY_CORE } from './pinning.js';
import { memory } from './proc-stats.js';
import { logTail, Processes } from './processes.js';
import { summarizeProfile } from './profile.js';
import { waitForQuietMachine } from './quiet-machine.js';
import { renderReport } from './report.js';
import { keepProfile, runStamp, writeResults } from './results-file.js';
import { bareProxyRoute, directRoute, gatewayRoute } from './routes.js';
import { runInfo } from './run-info.js';
import { runLoad } from './run-load.js';
import { gatewayDatabaseFile, liveHeapFile, startBareProxy, startGateway, startSimulator } from './servers.js';
import { readBenchSettings } from './settings.js';
import { checkTargets } from './targets.js';
import { workspaceRoutes } from './workspace-cases.js';

const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);

function onlyProfile(dir: string): string {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`the gateway wrote no .cpuprofile in ${dir} (did it exit cleanly?)`);
  return join(dir, file);
}

async function main(): Promise<number> {
  process.chdir(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  const settings = readBenchSettings();
  ensureBuilt();
  const pinning = detectPinning();
  const processes = new Processes();
  const dir = mkdtempSync(join(tmpdir(), 'model-gateway-bench-'));

  // However the run ends (success, error, Ctrl-C), every child is stopped and the temp dir removed, once.
  let cleaning: Promise<void> | undefined;
  let interrupted = false;
  const cleanup = () => (cleaning ??= processes.stopAll().finally(() => rmSync(dir, { recursive: true, force: true })));
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    progress(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    progress(pinning.note);
    const machine = await waitForQuietMachine(settings.quietWaitSeconds, [], progress);
    const sim = await startSimulator(processes, pinning, dir);
    const profileDir = settings.profile ? join(dir, 'profile') : undefined;
    if (profileDir) mkdirSync(profileDir);
    const gateway = await startGateway(processes, pinning, dir, sim.origin, profileDir);
    const direct = directRoute(sim.origin);
    const through = gatewayRoute(gateway.origin);
    const bareProxy = await startBareProxy(processes, pinning, dir, sim.origin);
    const floor = bareProxyRoute(bareProxy.origin);
    await checkRoute(direct);
    await checkRoute(through);
    await checkChat(floor);
    const workspaces = await workspaceRoutes(through, sim.origin);
    for (const route of Object.values(workspaces.routes)) await checkChat(route);

    const gatewayPid = gateway.started.pid;
    const startRssMb = memory(gatewayPid)?.rssMb;
    const results = await runPhases({
      processes,
      pinning,
      settings,
      pids: { gateway: gatewayPid, sim: sim.started.pid, bareProxy: bareProxy.started.pid },
      liveHeapFile: liveHeapFile(dir),
      direct,
      gateway: through,
      bareProxy: floor,
      workspaces,
    });
    const peakRssMb = memory(gatewayPid)?.peakRssMb;

    // Stopping the gateway is what makes it write its profile.
    await processes.stopAll();
    const stamp = runStamp(settings.quick ? '-quick' : settings.profile ? '-profile' : '');
    await waitForQuietMachine(settings.quietWaitSeconds, [], progress);
    progress("SQLite ledger's CPU per row, alone on the gateway's core");
    const ledger = await runLoad(
      processes,
      pinning,
      'ledger-cost.ts',
      {
        gatewayDatabase: gatewayDatabaseFile(dir),
        file: join(dir, 'ledger-cost.sqlite'),
        singleRows: settings.ledgerSingleRows,
        batchRows: settings.ledgerBatchRows,
        batch: settings.ledgerBatch,
      },
      undefined,
      GATEWAY_CORE,
    );
    const profile = profileDir ? summarizeProfile(onlyProfile(profileDir), process.cwd()) : undefined;
    if (profile) profile.file = keepProfile(stamp, profile.file);

    const info = runInfo(pinning.note, machine);
    const figures = deriveFigures(results, peakRssMb, ledger.result);
    const checks = checkTargets(figures);
    process.stdout.write(`\n${renderReport(info, settings, results, figures, checks, startRssMb, profile)}\n`);
    const file = writeResults(stamp, { info, settings, figures, targets: checks, gatewayStartRssMb: startRssMb, results, profile });
    process.stdout.write(`\nresults: ${file}\n`);
    return 0;
  } catch (error) {
    if (interrupted) return 130; // a load process stopped by the signal, not a failure
    progress(`failed: ${(error as Error).stack ?? String(error)}`);
    for (const server of processes.history) {
      const tail = logTail(server);
      if (tail) process.stderr.write(`--- ${server.name} log (last lines) ---\n${tail}\n`);
    }
    return 1;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    progress(`failed: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
