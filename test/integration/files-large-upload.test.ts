import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_DEFAULTS } from '../../src/files/file-settings.js';
import { directoryStorage } from '../../src/files/storage/directory-storage.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { formPieces, rawUpload } from '../support/raw-upload.js';

const SIZE = 500 * 1024 * 1024;
/**
 * What the process may grow by while the file passes through: a fifth of the file (the collector's timing alone moves
 * the figure by tens of MB). A file held whole would grow it by all of it.
 */
const RSS_GROWTH_BOUND = 100 * 1024 * 1024;

/**
 * A 500 MB upload through the real server (in this process) to the
 * directory storage, the default caps in force: the process's resident
 * memory stays flat while it streams, and the file arrives whole.
 */
describe('a 500 MB upload', () => {
  let gw: RunningGateway;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mg-files-large-'));
    gw = await startGateway(testEngines[0]!, {
      files: { storage: directoryStorage(dir), maxBytes: FILE_DEFAULTS.maxBytes, workspaceQuotaBytes: FILE_DEFAULTS.workspaceQuotaBytes },
      clientLimits: { bodyTimeoutMs: 120_000 },
    });
  });
  afterAll(async () => {
    await gw?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams to the storage with the resident memory flat', async () => {
    // Text first (what the type is told from), then zeros; every piece a slice of one buffer, so the client holds nothing either.
    const head = Buffer.from(`${'line of text\n'.repeat(700)}`);
    const body = () =>
      formPieces([
        { name: 'purpose', value: 'user_data' },
        { name: 'file', filename: 'big.txt', size: SIZE, head },
      ]);
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const { answer } = await rawUpload(`${gw.baseUrl}/files`, gw.managementKey, body, false).finally(() => clearInterval(sampler));
    const file = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(answer.slice(0, 12), answer.slice(0, 500)).toBe('HTTP/1.1 200');
    expect(file).toMatchObject({ size_bytes: SIZE, mime_type: 'text/plain', filename: 'big.txt' });
    expect(statSync(join(dir, file.id)).size).toBe(SIZE);
    expect(peak - baseline, `grew from ${baseline} to ${peak}`).toBeLessThan(RSS_GROWTH_BOUND);
    expect((await call(gw, 'DELETE', `/files/${file.id}`, { key: gw.managementKey })).status).toBe(200);
  }, 120_000);
});
