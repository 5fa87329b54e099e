// What the shared-service outage suites share: a `serve` process in front of the simulator, and calls to it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ServingProcess, SOURCE_MAIN, startServe } from '../support/cli.js';

export const MANAGEMENT_KEY = 'outage-test-management-key-00000000';

/**
 * The config of a gateway whose models are served by the simulator at
 * `simUrl`: sim/model on one provider; sim/flaky and sim/sticky on two, the
 * cheaper alpha first, which fails for sim/flaky (its answers come from
 * beta) and serves sim/sticky unless a session is pinned to beta.
 */
export function writeSimConfig(dir: string, simUrl: string, extra: string[] = []): string {
  const file = join(dir, 'gateway.yaml');
  const pricing = '{ prompt: 0.000001, completion: 0.000002 }';
  writeFileSync(
    file,
    [
      'providers:',
      `  - { id: alpha, kind: openai, base_url: "${simUrl}/v1", api_key: k }`,
      `  - { id: beta, kind: openai, base_url: "${simUrl}/v1", api_key: k }`,
      'models:',
      '  - id: sim/model',
      '    endpoints:',
      `      - { provider: alpha, upstream_model: "sim-model", pricing: ${pricing} }`,
      '  - id: sim/flaky',
      '    endpoints:',
      `      - { provider: alpha, upstream_model: "sim-model@status=503", pricing: { prompt: 0.0000005, completion: 0.000001 } }`,
      `      - { provider: beta, upstream_model: "sim-model", pricing: ${pricing} }`,
      '  - id: sim/sticky',
      '    endpoints:',
      `      - { provider: alpha, upstream_model: "sim-model", pricing: { prompt: 0.0000005, completion: 0.000001 } }`,
      `      - { provider: beta, upstream_model: "sim-model", pricing: ${pricing} }`,
      ...extra,
    ].join('\n'),
  );
  return file;
}

/** `serve`, run from the sources, with `env` on top of a test's defaults. */
export function serveFromSource(env: NodeJS.ProcessEnv): Promise<ServingProcess> {
  return startServe({ GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: MANAGEMENT_KEY, ...env }, SOURCE_MAIN);
}

export interface Answer {
  status: number;
  body: any;
}

/** A JSON call to the gateway; `path` is under /api/v1 unless it starts at the root (/health, /ready). */
export async function request(
  serving: Pick<ServingProcess, 'baseUrl'>,
  method: string,
  path: string,
  key?: string,
  body?: unknown,
): Promise<Answer> {
  const url =
    path.startsWith('/api/') || path === '/health' || path === '/ready'
      ? new URL(path, serving.baseUrl).toString()
      : `${serving.baseUrl}${path}`;
  const response = await fetch(url, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

export const chat = (serving: Pick<ServingProcess, 'baseUrl'>, key: string, extra: Record<string, unknown> = {}) =>
  request(serving, 'POST', '/chat/completions', key, { model: 'sim/model', messages: [{ role: 'user', content: 'Say hello' }], ...extra });

/** A new API key of the default organization: its secret and its hash. */
export async function createKey(
  serving: Pick<ServingProcess, 'baseUrl'>,
  name: string,
  limit?: number,
): Promise<{ key: string; hash: string }> {
  const { status, body } = await request(serving, 'POST', '/keys', MANAGEMENT_KEY, { name, ...(limit !== undefined ? { limit } : {}) });
  if (status !== 201) throw new Error(`POST /keys answered ${status}: ${JSON.stringify(body)}`);
  return { key: body.key, hash: body.data.hash };
}

/**
 * `clients` loops of `send` until stop() is called; each answer is kept.
 * What a gateway under load sees when a shared service goes away.
 */
export function load(clients: number, send: () => Promise<Answer>) {
  const answers: Answer[] = [];
  let running = true;
  const loops = Promise.all(
    Array.from({ length: clients }, async () => {
      while (running) answers.push(await send().catch((error: unknown) => ({ status: 0, body: String(error) })));
    }),
  );
  return {
    answers,
    async stop() {
      running = false;
      await loops;
      return answers;
    },
  };
}

/** The gateway's JSON log lines whose message contains `text`. */
export const logLines = (serving: ServingProcess, text: string): string[] =>
  serving
    .stdout()
    .split('\n')
    .filter((line) => line.includes(text));

/** The gateway's log lines at warn level and above (pino's 40 and up). */
export const warnings = (serving: ServingProcess): string[] =>
  logLines(serving, '"level":').filter((line) => (JSON.parse(line) as { level: number }).level >= 40);
