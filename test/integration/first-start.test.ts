import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startServe } from '../support/cli.js';

/** No provider of this machine's environment: what a newcomer's shell has. */
const bare = Object.fromEntries(
  Object.keys(process.env)
    .filter((name) => /_(API_KEY|BASE_URL)$/.test(name))
    .map((name) => [name, '']),
);

function freshPlace() {
  const dir = mkdtempSync(join(tmpdir(), 'mg-first-'));
  const config = join(dir, 'gateway.yaml');
  writeFileSync(config, '# nothing configured yet\n');
  return {
    database: join(dir, 'gateway.sqlite'),
    env: { ...bare, DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`, GATEWAY_CONFIG: config },
  };
}

async function takenPort<T>(use: (port: number) => Promise<T>): Promise<T> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  try {
    return await use((holder.address() as AddressInfo).port);
  } finally {
    holder.close();
  }
}

describe('the first start', () => {
  it('lists the models by type and, with no chat model, names what would enable one and the demo', async () => {
    const serving = await startServe(freshPlace().env);
    await serving.stop();
    const out = serving.stdout();
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(sqlite; models: 1 rerank\)/);
    expect(out).toContain('No chat model is enabled');
    for (const name of [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GEMINI_API_KEY or GOOGLE_API_KEY',
      'OLLAMA_BASE_URL',
      'GATEWAY_CONFIG',
      'npm run demo',
    ]) {
      expect(out).toContain(name);
    }
  });

  it('counts the chat models a provider key enables, gives no hint then, and never prints the key', async () => {
    const serving = await startServe({ ...freshPlace().env, MISTRAL_API_KEY: 'secret-value-of-the-key' });
    await serving.stop();
    const out = serving.stdout() + serving.stderr();
    expect(out).toMatch(/models: \d+ chat, 1 rerank\)/);
    expect(out).not.toContain('No chat model is enabled');
    expect(out).not.toContain('secret-value-of-the-key');
  });

  it('stores nothing when the port is taken: no database file, and a clear message naming PORT', async () => {
    const place = freshPlace();
    const result = await takenPort((port) => runCli(['serve'], { ...place.env, HOST: '127.0.0.1', PORT: String(port) }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/port \d+ on 127\.0\.0\.1 is taken by another program: set PORT to a free port/);
    expect(existsSync(place.database)).toBe(false);
  });

  it('refuses to start with a short or low-entropy bootstrap key, says why, and creates no database', async () => {
    for (const [key, why] of [
      ['sk-demo-management-key-0000', 'must be at least 32 characters long (it has 27)'],
      ['0'.repeat(48), 'has too little entropy: about 0 bits'],
    ]) {
      const place = freshPlace();
      const result = await runCli(['serve'], { ...place.env, HOST: '127.0.0.1', PORT: '0', GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: key });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`GATEWAY_BOOTSTRAP_MANAGEMENT_KEY ${why}`);
      expect(result.stderr).not.toContain(key);
      expect(existsSync(place.database)).toBe(false);
    }
  });

  it('writes no bootstrap key into the database of the server that holds the port', async () => {
    const place = freshPlace();
    const first = await startServe(place.env);
    const port = new URL(first.baseUrl).port;
    const key = 'sk-second-start-bootstrap-key-0123456789';
    const second = await runCli(['serve'], { ...place.env, HOST: '127.0.0.1', PORT: port, GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: key });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`port ${port} on 127.0.0.1 is taken`);
    const answer = await fetch(`${first.baseUrl}/key`, { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(401);
    await first.stop();
  });
});
