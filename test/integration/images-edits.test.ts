import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_INPUT_IMAGE_TOKENS } from '../../src/images/images-run.js';
import { SIM_INPUT_IMAGE_TOKENS } from '../../src/sim/images/openai-images-route.js';
import { promptColour, solidPng } from '../../src/sim/images/sim-png.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const prompt = 'add a hat';
/** USD per image made and per input image token. */
const PRICING = '{ image: 0.04, image_token: 0.00001 }';
const SITE_ADDRESS = '127.0.0.2';
const input = solidPng([200, 10, 10]);
const dataUrl = `data:image/png;base64,${input.toString('base64')}`;
const simImage = (i: number) => solidPng(promptColour(prompt, i)).toString('base64');

describe.each(testEngines)('image edits on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let site: Server;
  let siteUrl: string;
  const images = (body: Record<string, unknown>, key = gw.managementKey) => call(gw, 'POST', '/images', { key, body: { prompt, ...body } });
  const reference = (url: string) => ({ type: 'image_url', image_url: { url } });
  let siteFetches = 0;
  const simCalls = async () => ((await readSimStats(sim.url)).requests['/v1/images/edits'] as number | undefined) ?? 0;

  beforeAll(async () => {
    sim = await startSimulator();
    // The test's own image host, on an address the gateway is told it may reach.
    site = createServer((req, res) => {
      siteFetches++;
      if (req.url === '/input.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(input);
      if (req.url === '/huge.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(Buffer.alloc(21 * 1024 * 1024));
      }
      if (req.url === '/text') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('not an image');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, SITE_ADDRESS, resolve));
    siteUrl = `http://${SITE_ADDRESS}:${(site.address() as AddressInfo).port}`;
    const catalog = taskSimCatalog(sim.url, 'image', [
      { id: 'sim/image', endpoints: [{ provider: 'openai-a', upstream: 'gpt-image-1', pricing: PRICING }] },
      {
        id: 'sim/flaky-image',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-image-1@status=503', pricing: PRICING },
          { provider: 'openai-b', upstream: 'gpt-image-1', pricing: PRICING },
        ],
      },
    ]);
    gw = await startGateway(engine, {
      catalog,
      chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } },
      plugins: { allowPrivateRanges: [`${SITE_ADDRESS}/32`] },
    });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
    await new Promise((resolve) => site.close(resolve));
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  it('POST /images with a data URL reference is an edit: the image sent as multipart, its tokens billed at image_token', async () => {
    const res = await images({ model: 'sim/image', input_references: [reference(dataUrl)], quality: 'low' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ b64_json: simImage(0), media_type: 'image/png' }]);
    const cost = 0.04 + SIM_INPUT_IMAGE_TOKENS * 0.00001;
    expect(res.body.usage.cost).toBeCloseTo(cost, 12);
    expect((await readSimStats(sim.url)).lastRequestBody).toEqual({
      model: 'gpt-image-1',
      prompt,
      quality: 'low',
      files: [`image: ${input.length} bytes`],
    });
    const row = await gw.store.db.selectFrom('generations').selectAll().where('id', '=', res.body.id).executeTakeFirst();
    expect(row).toMatchObject({ status: 'success', api_type: 'image' });
    expect(row!.total_cost).toBeCloseTo(cost, 12);
    expect(JSON.parse(row!.routing as string)).toMatchObject({ images: 1, input_image_tokens: SIM_INPUT_IMAGE_TOKENS });
  });

  it('fetches an http(s) reference, sends several as image[], and falls back past a failing endpoint', async () => {
    const res = await images({ model: 'sim/flaky-image', input_references: [reference(`${siteUrl}/input.png`), reference(dataUrl)] });
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe('openai-b');
    expect((await readSimStats(sim.url)).lastRequestBody.files).toEqual([
      `image[]: ${input.length} bytes`,
      `image[]: ${input.length} bytes`,
    ]);
  });

  it('streams an edit as the reference’s events', async () => {
    const response = await fetch(`${gw.baseUrl}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim/image', prompt, stream: true, partial_images: 1, input_references: [reference(dataUrl)] }),
    });
    const text = await response.text();
    expect(text.match(/"type":"[^"]+"/g)).toEqual(['"type":"image_generation.partial_image"', '"type":"image_generation.completed"']);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('reserves for the input images’ most tokens too: a 402 before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny', limit: 0.1 } });
    const res = await images({ model: 'sim/image', input_references: [reference(dataUrl)] }, created.body.key);
    expect(res.status).toBe(402);
    expect(res.body.error.metadata.required_usd).toBeCloseTo(0.04 + MAX_INPUT_IMAGE_TOKENS * 0.00001, 12);
    expect(await simCalls()).toBe(0);
    // Without the reference the same key is served.
    expect((await images({ model: 'sim/image' }, created.body.key)).status).toBe(200);
  });

  it('plans and holds before fetching a reference: an unknown model and a 402 fetch nothing', async () => {
    const before = siteFetches;
    const unknown = await images({ model: 'sim/no-such-model', input_references: [reference(`${siteUrl}/input.png`)] });
    expect(unknown.status).toBe(404);
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny too', limit: 0.1 } });
    const poor = await images({ model: 'sim/image', input_references: [reference(`${siteUrl}/input.png`)] }, created.body.key);
    expect(poor.status).toBe(402);
    expect(siteFetches).toBe(before);
  });

  it.each([
    ['an image over the size limit', () => `${siteUrl}/huge.png`, 413, 'input_references[0].image_url.url is larger than'],
    [
      'a file that is no image',
      () => `${siteUrl}/text`,
      400,
      'input_references[0].image_url.url: an input image must be a PNG, JPEG or WebP',
    ],
    ['a URL that answers 404', () => `${siteUrl}/missing.png`, 400, 'answered 404'],
    ['a URL on the gateway’s own network', () => `${sim.url}/v1/sim-images/ff0000.png`, 400, 'could not be fetched'],
    ['another scheme', () => 'ftp://example.com/a.png', 400, 'must be a base64 data URL or an http(s) URL'],
  ])('refuses %s, naming the reference', async (_, url, status, message) => {
    const res = await images({ model: 'sim/image', input_references: [reference(url())] });
    expect(res.status).toBe(status);
    expect(res.body.error.message).toContain(message);
    expect(await simCalls()).toBe(0);
  });

  it('refuses more than 16 references, and a reference of the wrong shape, naming the field', async () => {
    const many = await images({ model: 'sim/image', input_references: Array.from({ length: 17 }, () => reference(dataUrl)) });
    expect(many.status).toBe(400);
    expect(many.body.error.message).toContain('input_references');
    const shape = await images({ model: 'sim/image', input_references: [{ type: 'image_url', image_url: {} }] });
    expect(shape.status).toBe(400);
    expect(shape.body.error.message).toContain('input_references[0].image_url.url');
  });

  it('POST /images/edits takes OpenAI’s multipart form, and refuses one without an image', async () => {
    const form = new FormData();
    form.append('model', 'sim/image');
    form.append('prompt', prompt);
    form.append('n', '2');
    form.append('image', new Blob([input], { type: 'image/png' }), 'in.png');
    const post = (body: FormData) =>
      fetch(`${gw.baseUrl}/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${gw.managementKey}` }, body });
    const res = await post(form);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { b64_json: string }[]; usage: { cost: number } };
    expect(body.data.map((d) => d.b64_json)).toEqual([simImage(0), simImage(1)]);
    expect(body.usage.cost).toBeCloseTo(0.08 + SIM_INPUT_IMAGE_TOKENS * 0.00001, 12);
    const empty = new FormData();
    empty.append('model', 'sim/image');
    empty.append('prompt', prompt);
    const refused = await post(empty);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('image is required');
    const badN = new FormData();
    badN.append('model', 'sim/image');
    badN.append('prompt', prompt);
    badN.append('n', 'eleven');
    badN.append('image', new Blob([input], { type: 'image/png' }), 'in.png');
    const wrong = await post(badN);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toContain('n must be of type integer');
  });
});
