import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases.js';
import { migratedStore } from '../../../test/support/migrated-store.js';
import { s3Client } from '../../net/s3-client.js';
import { S3_PATH, SIM_S3_CREDENTIALS } from '../../sim/s3/s3-route.js';
import { type Simulator, startSimulator } from '../../sim/server.js';
import { CHUNK_BYTES, databaseStorage } from './database-storage.js';
import { directoryStorage } from './directory-storage.js';
import type { FileStorage } from './file-storage.js';
import { s3Storage } from './s3-storage.js';

const CYCLE = Buffer.from(Array.from({ length: 256 * 1024 }, (_, i) => i % 251));
/** `total` bytes of a known pattern (byte i is i mod 251), `piece` (< 255 KiB) bytes at a time. */
async function* pattern(total: number, piece: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < total; at += piece) yield Buffer.from(CYCLE.subarray(at % 251, (at % 251) + Math.min(piece, total - at)));
}

async function* failing(after: number): AsyncGenerator<Buffer> {
  yield* pattern(after, 4096);
  throw new Error('the client went away');
}

const readAll = async (storage: FileStorage, id: string) => {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(id)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};
const expected = async (total: number) => {
  const chunks: Buffer[] = [];
  for await (const chunk of pattern(total, 7919)) chunks.push(chunk);
  return Buffer.concat(chunks);
};

/** The same contract for every storage. */
function contract(name: string, storage: () => FileStorage) {
  describe(name, () => {
    it('keeps the bytes written, across chunk boundaries, and counts them', async () => {
      const total = CHUNK_BYTES * 2 + 12345;
      expect(await storage().write('file_a', pattern(total, 65536 + 17))).toBe(total);
      expect((await readAll(storage(), 'file_a')).equals(await expected(total))).toBe(true);
      expect(await storage().write('file_small', pattern(10, 3))).toBe(10);
      expect((await readAll(storage(), 'file_small')).equals(await expected(10))).toBe(true);
    });

    it('keeps nothing of a body that fails, and rejects with its error', async () => {
      await expect(storage().write('file_cut', failing(CHUNK_BYTES + 10))).rejects.toThrow('the client went away');
      await expect(readAll(storage(), 'file_cut')).rejects.toThrow();
    });

    it('forgets a removed file, and removing nothing is no error', async () => {
      await storage().write('file_gone', pattern(100, 100));
      await storage().remove('file_gone');
      await expect(readAll(storage(), 'file_gone')).rejects.toThrow();
      await storage().remove('file_never');
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'mg-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
contract('directory storage', () => directoryStorage(join(dir, 'files')));

describe('directory storage ids', () => {
  it('refuses an id that could name a path outside its directory', async () => {
    const storage = directoryStorage(join(dir, 'files'));
    await expect(storage.write('../escape', pattern(1, 1))).rejects.toThrow('not a storable file id');
    expect(() => storage.read('a/b')).toThrow('not a storable file id');
  });
});

describe.each(testEngines)('on $name', (engine) => {
  const store = migratedStore(engine);
  contract('database storage', () => databaseStorage(store.db));
});

describe("on the simulator's S3", () => {
  let sim: Simulator;
  let client: ReturnType<typeof s3Client>;
  beforeAll(async () => {
    sim = await startSimulator();
    client = s3Client({
      bucket: 'files',
      region: 'us-east-1',
      endpoint: `${sim.url}${S3_PATH}`,
      forcePathStyle: true,
      prefix: 'gw/',
      credentials: SIM_S3_CREDENTIALS,
    });
    await client.send(new CreateBucketCommand({ Bucket: 'files' }));
  });
  afterAll(() => sim.close());
  contract('s3 storage', () => s3Storage(client, 'files', 'gw/'));

  it('keeps a file larger than a part as one object under the prefix, and no upload left open', async () => {
    const total = 5 * 1024 * 1024 * 2 + 99;
    expect(await s3Storage(client, 'files', 'gw/').write('file_parts', pattern(total, 65536))).toBe(total);
    expect((await readAll(s3Storage(client, 'files', 'gw/'), 'file_parts')).equals(await expected(total))).toBe(true);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'files', Prefix: 'gw/file_parts' }));
    expect(listed.Contents?.map((o) => [o.Key, o.Size])).toEqual([['gw/file_parts', total]]);
    await expect(s3Storage(client, 'files', 'gw/').write('file_cut_late', failing(6 * 1024 * 1024))).rejects.toThrow(
      'the client went away',
    );
    expect((await client.send(new ListMultipartUploadsCommand({ Bucket: 'files' }))).Uploads ?? []).toEqual([]);
  });
});
