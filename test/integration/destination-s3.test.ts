import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Client } from '../../src/net/s3-client.js';
import { S3_PATH, SIM_S3_CREDENTIALS } from '../../src/sim/s3/s3-route.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const MODELS = [{ id: 'sim/a', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00001, completion: 0.00002 }] }];

/** The s3 destination end to end: generations as JSON Lines objects in the simulator's S3, read back through the S3 API. */
describe('the s3 observability destination', () => {
  let sim: Simulator;
  let gw: RunningGateway;
  let s3: S3Client;
  let userKey: string;
  const admin = (method: string, path: string, body?: unknown) =>
    call(gw, method, path, { key: gw.managementKey, ...(body !== undefined ? { body } : {}) });
  const objects = async (prefix: string) => {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'traces', Prefix: prefix }));
    return Promise.all(
      (listed.Contents ?? []).map(async (o) => ({
        key: o.Key!,
        body: await (await s3.send(new GetObjectCommand({ Bucket: 'traces', Key: o.Key! }))).Body!.transformToString(),
      })),
    );
  };

  beforeAll(async () => {
    sim = await startSimulator();
    s3 = s3Client({
      bucket: 'traces',
      region: 'us-east-1',
      endpoint: `${sim.url}${S3_PATH}`,
      forcePathStyle: true,
      prefix: '',
      credentials: SIM_S3_CREDENTIALS,
    });
    await s3.send(new CreateBucketCommand({ Bucket: 'traces' }));
    gw = await startGateway(testEngines[0]!, {
      catalog: simCatalog(sim.url, ['alpha'], MODELS),
      plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
      destinations: { intervalMs: 50, backoffBaseMs: 50, backoffMaxMs: 300, timeoutMs: 10_000, retryWindowMs: 60_000 },
    });
    userKey = (await admin('POST', '/keys', { name: 'user' })).body.key;
    // A workspace broadcasts its generations only once it says so.
    const workspace = (await call(gw, 'GET', '/key', { key: userKey })).body.data.workspace_id as string;
    expect((await admin('PATCH', `/workspaces/${workspace}`, { is_observability_broadcast_enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('refuses a config without its bucket or keys, and masks the keys in every answer', async () => {
    const missing = await admin('POST', '/observability/destinations', {
      type: 's3',
      name: 'x',
      config: { accessKeyId: 'AKIA1', secretAccessKey: 's' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('config.bucketName is required for a s3 destination');
    const style = await admin('POST', '/observability/destinations', {
      type: 's3',
      name: 'x',
      config: { bucketName: 'b', accessKeyId: 'AKIA1', secretAccessKey: 's', pathStyle: 'yes' },
    });
    expect(style.body.error.message).toBe('config.pathStyle must be true or false');
    const signed = await admin('POST', '/observability/destinations', {
      type: 's3',
      name: 'x',
      config: { bucketName: 'b', accessKeyId: 'AKIA1', secretAccessKey: 's', headers: { 'X-Amz-Date': '20260101T000000Z' } },
    });
    expect(signed.status).toBe(400);
    expect(signed.body.error.message).toBe("config.headers.X-Amz-Date is set by the client itself (the request's framing or signature)");
  });

  it('puts every generation as a line of a JSON Lines object, under the prefix and the date', async () => {
    const made = await admin('POST', '/observability/destinations', {
      type: 's3',
      name: 'Warehouse',
      config: {
        bucketName: 'traces',
        endpoint: `${sim.url}${S3_PATH}`,
        prefix: 'gw',
        accessKeyId: SIM_S3_CREDENTIALS.accessKeyId,
        secretAccessKey: SIM_S3_CREDENTIALS.secretAccessKey,
        // Custom headers go with every request, signed: S3 keeps x-amz-meta-* as the object's metadata.
        headers: { 'x-amz-meta-team': 'search-quality-team' },
      },
    });
    expect(made.status).toBe(201);
    expect(made.body.data.config.headers).toEqual({ 'x-amz-meta-team': 'sear...team' });
    expect(made.body.data.config).toMatchObject({
      bucketName: 'traces',
      region: 'us-east-1',
      pathTemplate: '{prefix}/{date}',
      accessKeyId: 'AKIA...0000',
      secretAccessKey: 'sim/...0000',
    });
    const read = await admin('GET', `/observability/destinations/${made.body.data.id}`);
    expect(JSON.stringify(read.body)).not.toContain(SIM_S3_CREDENTIALS.secretAccessKey);

    const ids = new Set<string>();
    for (const answer of await Promise.all(
      Array.from({ length: 6 }, () =>
        call(gw, 'POST', '/chat/completions', {
          key: userKey,
          body: { model: 'sim/a', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] },
        }),
      ),
    )) {
      expect(answer.status).toBe(200);
      ids.add(answer.body.id);
    }
    let lines: Record<string, unknown>[] = [];
    let keys: string[] = [];
    for (const end = Date.now() + 15_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
      const found = await objects('gw/');
      keys = found.map((o) => o.key);
      lines = found.flatMap((o) =>
        o.body
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
      if (lines.length >= ids.size) break;
    }
    expect(new Set(lines.map((line) => line.id))).toEqual(ids);
    expect(lines).toHaveLength(ids.size);
    const today = new Date().toISOString().slice(0, 10);
    for (const key of keys) expect(key).toMatch(new RegExp(`^gw/${today}/\\d{8}T\\d{9}Z-[^/]+\\.jsonl$`));
    expect(lines[0]).toMatchObject({ model: 'sim/a', usage: { prompt_tokens: expect.any(Number) } });
    for (const key of keys)
      expect((await s3.send(new HeadObjectCommand({ Bucket: 'traces', Key: key }))).Metadata).toEqual({ team: 'search-quality-team' });
  });

  it('dead-letters what the store refuses for good (NoSuchBucket), and sends it once the bucket exists and it is retried', async () => {
    const id = (
      await admin('POST', '/observability/destinations', {
        type: 's3',
        name: 'Not yet made',
        config: {
          bucketName: 'later',
          endpoint: `${sim.url}${S3_PATH}`,
          prefix: 'late',
          accessKeyId: SIM_S3_CREDENTIALS.accessKeyId,
          secretAccessKey: SIM_S3_CREDENTIALS.secretAccessKey,
        },
      })
    ).body.data.id as string;
    const chat = await call(gw, 'POST', '/chat/completions', {
      key: userKey,
      body: { model: 'sim/a', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] },
    });
    let delivery: { dead_letters: number; last_error: string | null } = { dead_letters: 0, last_error: null };
    for (const end = Date.now() + 15_000; Date.now() < end && delivery.dead_letters < 1; await new Promise((r) => setTimeout(r, 100)))
      delivery = (await admin('GET', `/observability/destinations/${id}`)).body.data.delivery;
    expect(delivery).toMatchObject({ dead_letters: 1 });
    expect(delivery.last_error).toMatch(/s3:\/\/later answered 404: NoSuchBucket/);

    await s3.send(new CreateBucketCommand({ Bucket: 'later' }));
    expect((await admin('POST', `/observability/destinations/${id}/retry`)).body).toEqual({ data: { retried: 1 } });
    let keys: string[] = [];
    for (const end = Date.now() + 15_000; Date.now() < end && keys.length === 0; await new Promise((r) => setTimeout(r, 100)))
      keys = ((await s3.send(new ListObjectsV2Command({ Bucket: 'later' }))).Contents ?? []).map((o) => o.Key!);
    expect(keys).toEqual([expect.stringMatching(new RegExp(`^late/\\d{4}-\\d{2}-\\d{2}/\\d{8}T\\d{9}Z-${chat.body.id}\\.jsonl$`))]);
  });
});
