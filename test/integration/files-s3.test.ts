import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Storage } from '../../src/files/storage/s3-storage.js';
import { s3Client } from '../../src/net/s3-client.js';
import { S3_PATH, SIM_S3_CREDENTIALS } from '../../src/sim/s3/s3-route.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

/** The files API end to end with FILES_STORAGE=s3, on the simulator's S3 (the storage's contract is src/files/storage's test). */
describe('files in an S3 bucket', () => {
  let sim: Simulator;
  let gw: RunningGateway;
  let key: string;
  let client: ReturnType<typeof s3Client>;

  beforeAll(async () => {
    sim = await startSimulator();
    client = s3Client({
      bucket: 'gateway-files',
      region: 'us-east-1',
      endpoint: `${sim.url}${S3_PATH}`,
      forcePathStyle: true,
      prefix: 'files/',
      credentials: SIM_S3_CREDENTIALS,
    });
    await client.send(new CreateBucketCommand({ Bucket: 'gateway-files' }));
    gw = await startGateway(testEngines[0]!, {
      files: { storage: s3Storage(client, 'gateway-files', 'files/'), maxBytes: 16 * 1024 * 1024, workspaceQuotaBytes: 64 * 1024 * 1024 },
    });
    const workspace = (await call(gw, 'POST', '/workspaces', { key: gw.managementKey, body: { name: 'S3', slug: 's3' } })).body.data.id;
    key = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 's3', workspace_id: workspace } })).body.key;
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('uploads a file of several parts to the bucket, serves it back, and deletes the object with the file', async () => {
    const line = 'id,name,amount\n';
    const content = line + '1,widget,42\n'.repeat(600_000); // 7.2 MB: a multipart upload of two parts
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/csv' }), 'ledger.csv');
    const made = await fetch(`${gw.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    expect(made.status).toBe(200);
    const file = (await made.json()) as { id: string; size_bytes: number; mime_type: string };
    expect(file).toMatchObject({ size_bytes: content.length, mime_type: 'text/csv' });

    const object = await client.send(new HeadObjectCommand({ Bucket: 'gateway-files', Key: `files/${file.id}` }));
    expect(object.ContentLength).toBe(content.length);
    expect(object.ETag).toMatch(/-2"$/);

    const served = await fetch(`${gw.baseUrl}/files/${file.id}/content`, { headers: { authorization: `Bearer ${key}` } });
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(content);

    expect((await call(gw, 'DELETE', `/files/${file.id}`, { key })).status).toBe(200);
    expect((await client.send(new ListObjectsV2Command({ Bucket: 'gateway-files', Prefix: 'files/' }))).KeyCount).toBe(0);
  });
});
