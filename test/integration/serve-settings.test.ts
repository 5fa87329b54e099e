import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../support/cli.js';

const KEY = 'sk-limits-test-management-key-0123456789';

describe('model-gateway serve', () => {
  it('applies the request limits of its environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-limits-'));
    writeFileSync(join(dir, 'gateway.yaml'), '# nothing configured\n');
    const serving = await startServe({
      DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
      GATEWAY_CONFIG: join(dir, 'gateway.yaml'),
      GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: KEY,
      MAX_BODY_BYTES: '2000',
      MAX_JSON_DEPTH: '8',
    });
    try {
      const post = (body: string) =>
        fetch(`${serving.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
          body,
        });
      const tooLarge = await post(JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'a'.repeat(3000) }] }));
      expect(tooLarge.status).toBe(413);
      const tooDeep = await post(JSON.stringify({ model: 'x', messages: [], deep: [[[[[[[[[[1]]]]]]]]]] }));
      expect(tooDeep.status).toBe(400);
      expect(((await tooDeep.json()) as { error: { message: string } }).error.message).toMatch(/deep/i);
    } finally {
      await serving.stop();
    }
  });
});
