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
import { type FormPart, formPieces, rawUpload } from '../support/raw-upload.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const prompt = 'add a hat';
/** USD per image made and per input image token. */
const PRICING = '{ image: 0.04, image_token: 0.00001 }';
const SITE_ADDRESS = '127.0.0.2';
const input = solidPng([200, 10, 10]);
const dataUrl = `data:image/png;base64,${input.toString('base64')}`;
const simImage = (i: number) => solidPng(promptColour(prompt, i)).toString('base64');
const BODY_LIMIT = 10 * 1024 * 1024;
/** An edit of `images` images of `size` bytes each (a PNG's first bytes, then zeros): each within the 20 MB of an input image. */
const editOf = (images: number, size: number) => () =>
  formPieces([
    { name: 'model', value: 'sim/image' },
    { name: 'prompt', value: prompt },
    ...Array.from({ length: images }, (): FormPart => ({ name: 'image[]', filename: 'in.png', size, head: input })),
  ]);

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
  it.each([
    ['declares a Content-Length past the body limit', false],
    ['is chunked past the body limit', true],
  ])('refuses a 100 MB edit that %s with a 413, and closes the connection instead of reading it', async (_, chunked) => {
    // Six images of 16 MiB: each one within an input image's 20 MB, the form ten times MAX_BODY_BYTES.
    const upload = editOf(6, 16 * 1024 * 1024);
    const { answer, sent } = await rawUpload(`${gw.baseUrl}/images/edits`, gw.managementKey, upload, chunked);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('GW_ERR_BODY_TOO_LARGE');
    expect(answer).toContain(`exceeds the ${BODY_LIMIT}-byte limit`);
    // A declared length is refused before the body is read; a chunked one once it passes the limit.
    expect(sent).toBeLessThan(chunked ? 4 * BODY_LIMIT : BODY_LIMIT);
    expect(await simCalls()).toBe(0);
    // Within the limit, the same form is served.
    const small = await rawUpload(`${gw.baseUrl}/images/edits`, gw.managementKey, editOf(2, 1024 * 1024), chunked);
    expect(small.answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it.each<[string, () => Iterable<Buffer>, number, string]>([
    [
      'a part whose headers pass 16 KiB',
      () => [
        Buffer.from(`--b\r\nContent-Disposition: form-data; name="model"\r\nX-Padding: ${'x'.repeat(1024 * 1024)}\r\n\r\nsim/image\r\n`),
        ...editOf(1, input.length)(),
      ],
      413,
      'Upload too large: the headers of a part exceed the 16384-byte limit',
    ],
    [
      '10,000 parts',
      () => formPieces(Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, value: 'x' }))),
      413,
      'Upload too large: an edit takes at most 32 fields',
    ],
    [
      '10,000 parts that are neither field nor file',
      () => [Buffer.from('--b\r\nX-Part: 1\r\n\r\nx\r\n'.repeat(10_000)), ...editOf(1, input.length)()],
      413,
      'Upload too large: an edit takes at most 64 parts',
    ],
    [
      'a part with no name',
      () => [Buffer.from('--b\r\nContent-Disposition: form-data\r\n\r\nsim/image\r\n'), ...editOf(1, input.length)()],
      400,
      'every part of the form must have a name',
    ],
    [
      'a field value of 1 MB',
      () =>
        formPieces([
          { name: 'user', value: 'x'.repeat(1024 * 1024) },
          { name: 'image', filename: 'in.png', size: input.length, head: input },
        ]),
      413,
      'Upload too large: the field user exceeds the 65536-byte limit of a field',
    ],
    [
      'a file in a field the form does not take',
      () => formPieces([{ name: 'picture', filename: 'in.png', size: input.length, head: input }]),
      400,
      'picture: the form takes files in image, image[] and mask only',
    ],
    [
      'a field named __proto__',
      () =>
        formPieces([
          { name: '__proto__', value: 'x' },
          { name: 'image', filename: 'in.png', size: input.length, head: input },
        ]),
      400,
      'a field name of the form is not allowed',
    ],
  ])('refuses an edit with %s in the envelope', async (_, body, status, message) => {
    for (const chunked of [false, true]) {
      const { answer } = await rawUpload(`${gw.baseUrl}/images/edits`, gw.managementKey, body, chunked);
      expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      const envelope = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: number; message: string } };
      expect(envelope.error.code).toBe(status);
      expect(envelope.error.message).toContain(message);
    }
    expect(await simCalls()).toBe(0);
  });
});
