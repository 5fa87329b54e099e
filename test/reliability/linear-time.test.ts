import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

/**
 * Linear time on every JSON endpoint a body can reach: each is fed bodies
 * growing 2× at a time (more messages, inputs or documents, and one longer
 * word), with the organization storing content. The CPU time the process
 * spends on a body 4× the size of another must stay within a linear multiple
 * of it (4×, with room for noise; a quadratic path takes 16×). The least of
 * a few runs is kept, and CPU time, not wall time, is compared, so that a
 * busy machine slows both sizes alike.
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;

/** The smallest body's scale: enough messages that the stored content passes its 256 KiB bound from the second size on. */
const BASE = 4_000;
const DOUBLINGS = 4;
const RUNS = 3;
/** Linear is 4× from the second size to the fourth; quadratic 16×. */
const MOST_RATIO = 8;

const word = (i: number) => `w${i.toString(36)}`;
/** `count` distinct words, the `from`th such list. */
const words = (count: number, from = 0) => Array.from({ length: count }, (_, i) => word(from * count + i));
/** A word of 2.5 characters per unit of scale: BPE of one long word grows with its square. */
const longWord = (n: number) => 'x'.repeat(Math.round(2.5 * n));
const turns = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: i === n - 1 ? `${word(i)} ${longWord(n)}` : word(i),
  }));

/** Each JSON endpoint and its body at scale `n`. */
const ENDPOINTS: { path: string; body: (n: number) => unknown; status: number }[] = [
  { path: '/chat/completions', body: (n) => ({ model: 'sim/chat', max_tokens: 8, messages: turns(n + 1) }), status: 200 },
  {
    path: '/responses',
    // A run of function calls and their outputs too: each call joins one assistant turn.
    body: (n) => ({
      model: 'sim/chat',
      max_output_tokens: 16,
      input: [
        ...words(n / 4).map((name, i) => ({ type: 'function_call', call_id: `c${i}`, name: 'f', arguments: `{"q":"${name}"}` })),
        ...words(n / 4).map((_, i) => ({ type: 'function_call_output', call_id: `c${i}`, output: 'ok' })),
        ...turns(n + 1).map((t) => ({ type: 'message', ...t })),
      ],
    }),
    status: 200,
  },
  { path: '/messages', body: (n) => ({ model: 'sim/chat', max_tokens: 8, messages: turns(n + 1) }), status: 200 },
  { path: '/messages/count_tokens', body: (n) => ({ model: 'sim/chat', messages: turns(n + 1) }), status: 200 },
  {
    path: '/embeddings',
    body: (n) => ({ model: 'sim/embed', input: [...Array.from({ length: 64 }, (_, i) => words(n / 16, i).join(' ')), longWord(n)] }),
    status: 200,
  },
  {
    path: '/rerank',
    body: (n) => ({
      model: 'local/bm25',
      query: words(n / 4).join(' '),
      documents: Array.from({ length: n }, (_, i) => `${word(i)} ${word(i * 7)} ${word(i * 13)}`).concat(longWord(n)),
    }),
    status: 200,
  },
];

function catalog(simUrl: string) {
  const yaml = [
    'providers:',
    `  - { id: openai-a, kind: openai, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: 30000 }`,
    '  - { id: gateway, kind: local }',
    'models:',
    '  - id: sim/chat',
    '    endpoints: [{ provider: openai-a, upstream_model: sim-model, pricing: { prompt: 0.0000001, completion: 0.0000002 } }]',
    '  - id: sim/embed',
    '    type: embeddings',
    '    endpoints: [{ provider: openai-a, upstream_model: sim-embed, pricing: { prompt: 0.0000001 } }]',
    '  - id: local/bm25',
    '    type: rerank',
    '    endpoints: [{ provider: gateway, upstream_model: bm25, pricing: { request: 0 } }]',
  ].join('\n');
  const config = parseGatewayConfig(yaml, 'linear-time.yaml', { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

/** CPU time, in ms, the whole process spends on one call, and its status. */
async function cpuOf(run: () => Promise<{ status: number }>): Promise<{ ms: number; status: number }> {
  const before = process.cpuUsage();
  const { status } = await run();
  const spent = process.cpuUsage(before);
  return { ms: (spent.user + spent.system) / 1000, status };
}

describe('linear time on every JSON endpoint', () => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(sqlite, { catalog: catalog(sim.url) });
    const on = await call(gw, 'PATCH', '/organization/settings', { key: gw.managementKey, body: { store_content: true } });
    expect(on.status).toBe(200);
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.path}: a body 4× larger costs at most ${MOST_RATIO}× the CPU time`, async () => {
      const body = (n: number) => JSON.stringify(endpoint.body(n));
      const send = (text: string) => () => call(gw, 'POST', endpoint.path, { key: gw.managementKey, body: text });
      const times: number[] = [];
      for (let d = 0; d < DOUBLINGS; d++) {
        const text = body(BASE * 2 ** d);
        let least = Number.POSITIVE_INFINITY;
        for (let r = 0; r < RUNS; r++) {
          const { ms, status } = await cpuOf(send(text));
          expect(status).toBe(endpoint.status);
          least = Math.min(least, ms);
        }
        times.push(least);
      }
      const ratio = times[DOUBLINGS - 1]! / times[DOUBLINGS - 3]!;
      expect(ratio, `CPU ms per size ×1, ×2, ×4, ×8: ${times.map((t) => t.toFixed(0)).join(', ')}`).toBeLessThanOrEqual(MOST_RATIO);
    });
  }
});
