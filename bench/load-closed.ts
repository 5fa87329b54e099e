// Closed-loop throughput: N connections, each sends its next request as soon as the last reply arrives.
import autocannon from 'autocannon';
import { loadMain } from './load-main.js';
import type { ClosedLoopResult, ClosedLoopSpec } from './load-types.js';

loadMain(async (spec: ClosedLoopSpec, mark): Promise<ClosedLoopResult> => {
  const run = (seconds: number) =>
    autocannon({
      url: `${spec.target.origin}${spec.target.path}`,
      method: 'POST',
      headers: { authorization: spec.target.authorization, 'content-type': 'application/json' },
      body: spec.target.body,
      connections: spec.connections,
      duration: seconds,
      pipelining: 1,
      timeout: 30,
    });
  // Discarded: this process's own JIT warm-up and connection set-up.
  if (spec.warmupSeconds > 0) await run(spec.warmupSeconds);
  mark('start');
  const result = await run(spec.seconds);
  mark('end');
  // Only successful replies count as throughput: a fast error is not a served request.
  const ok = result['2xx'];
  return {
    requests: ok,
    seconds: result.duration,
    requestsPerSecond: ok / result.duration,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  };
});
