import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../src/api/console/serve-console.js';
import { CreateKeyBody } from '../../src/api/keys/schemas.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

interface Operation {
  security?: { [scheme: string]: string[] }[];
  description?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object>; securitySchemes: Record<string, object> };
}

/**
 * Every method and path the server routes, read from Fastify's own route tree
 * (printRoutes draws one node per line, four characters per level, each
 * node's path continuing its parent's), in the document's spelling.
 */
function serverRoutes(tree: string): { method: string; path: string }[] {
  const parents: string[] = [];
  return tree.split('\n').flatMap((line) => {
    const node = /^((?:│ {3}| {4})*)[├└]── (.*) \(([^)]+)\)$/.exec(line);
    if (!node) return [];
    const depth = node[1]!.length / 4;
    const path = (parents[depth - 1] ?? '') + node[2]!;
    parents[depth] = path;
    return node[3]!
      .split(', ')
      .filter((method) => method !== '-')
      .map((method) => ({ method: method.toLowerCase(), path: path.replace(/:([A-Za-z0-9_]+)/g, '{$1}') }));
  });
}

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation })),
  );

describe('the OpenAPI document and the reference page', () => {
  const engine = testEngines[0]!;
  let gateway: RunningGateway;
  let origin: string;
  let document: Document;
  let plainKey: string;

  beforeAll(async () => {
    gateway = await startGateway(engine);
    origin = new URL(gateway.baseUrl).origin;
    const created = await call(gateway, 'POST', '/keys', { key: gateway.managementKey, body: { name: 'not a management key' } });
    plainKey = created.body.key;
    const response = await fetch(`${gateway.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    document = (await response.json()) as Document;
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('is served without a key and is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.components.securitySchemes).toEqual({ bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    // The validator does refuse: the same document with a parameter where OpenAPI 3 has none (in the body).
    const broken = structuredClone(document);
    broken.paths['/api/v1/keys']!.get!.parameters![0]!.in = 'body';
    expect((await new Validator().validate(broken as unknown as Record<string, unknown>)).valid).toBe(false);
  });

  it('lists every route the server has, and none it has not', () => {
    // HEAD answers every GET by itself; /docs is the reference page and /console the web console, not the API.
    const routes = serverRoutes(gateway.app.printRoutes({ commonPrefix: false })).filter(
      ({ method, path }) => method !== 'head' && !path.startsWith('/docs') && !path.startsWith('/console'),
    );
    expect(routes.length).toBeGreaterThan(60);
    const listed = operations(document).map(({ method, path }) => `${method} ${path}`);
    expect(listed.sort()).toEqual(routes.map(({ method, path }) => `${method} ${path}`).sort());
    expect(listed).toContain('post /api/v1/chat/completions');
    expect(listed).toContain('get /api/v1/openapi.json');
  });

  it('describes requests with the schemas the routes validate them with', () => {
    const create = document.paths['/api/v1/keys']!.post!;
    expect(create.requestBody!.content['application/json']!.schema).toEqual(JSON.parse(JSON.stringify(CreateKeyBody)));
    expect(document.paths['/api/v1/keys']!.get!.parameters!.map((p) => `${p.in} ${p.name}`).sort()).toEqual([
      'query include_disabled',
      'query offset',
      'query workspace_id',
    ]);
    expect(document.paths['/api/v1/keys/{hash}']!.patch!.parameters).toContainEqual(
      expect.objectContaining({ in: 'path', name: 'hash', required: true }),
    );
    const chat = document.paths['/api/v1/chat/completions']!.post!.requestBody!.content['application/json']!.schema as {
      properties: object;
    };
    expect(Object.keys(chat.properties)).toEqual(expect.arrayContaining(['model', 'messages', 'stream', 'tools', 'provider', 'plugins']));
  });

  it('says which operations take a key and which a management key, as the server enforces it, and that errors come in the envelope', async () => {
    const isEnvelope = new Ajv.default({ strict: false }).compile(document.components.schemas.Error!);
    const send = (method: string, path: string, key?: string) =>
      call(gateway, method.toUpperCase(), path.slice('/api/v1'.length).replace(/\{[^}]+\}/g, 'x'), {
        ...(key ? { key } : {}),
        ...(['post', 'put', 'patch'].includes(method) ? { body: {} } : {}),
      });
    const checked = [];
    for (const { method, path, operation } of operations(document)) {
      expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['4XX', '5XX']));
      const secured = (operation.security?.length ?? 0) > 0;
      const anonymous = await send(method, path);
      expect(anonymous.status === 401, `${method} ${path} without a key answered ${anonymous.status}`).toBe(secured);
      if (!secured) continue;
      // POST /messages answers in Anthropic's error shape, and its document says so.
      const refused = (operation.responses['4XX'] as { content: Record<string, { schema: { $ref?: string } }> }).content[
        'application/json'
      ]!.schema;
      const isError = refused.$ref ? isEnvelope : new Ajv.default({ strict: false }).compile(refused);
      expect(isError(anonymous.body), JSON.stringify(anonymous.body)).toBe(true);
      const management = operation.description?.startsWith('Management key required.') ?? false;
      const plain = await send(method, path, plainKey);
      expect(
        plain.body?.error?.message === 'Only management keys can perform this operation',
        `${method} ${path} with a plain key: ${JSON.stringify(plain.body)}`,
      ).toBe(management);
      checked.push(`${method} ${path}`);
    }
    expect(checked).toContain('delete /api/v1/keys/{hash}');
    // The public operations of the API (beside this document): the code exchange, whose code and verifier are the proof,
    // and the console's sign-in, whose management key is.
    const publicInApi = operations(document).filter(
      ({ path, operation }) => path.startsWith('/api/v1/') && (operation.security?.length ?? 0) === 0,
    );
    expect(publicInApi.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'get /api/v1/openapi.json',
      'post /api/v1/auth/keys',
      'post /api/v1/console/session',
    ]);
  });

  it('is browsable at /docs, the page and every asset it loads served by the gateway itself (no CDN)', async () => {
    const page = await fetch(`${origin}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(
      expect.arrayContaining(['/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-ui.css', '/docs/static/swagger-initializer.js']),
    );
    for (const asset of assets) {
      const response = await fetch(new URL(asset, `${origin}/docs`));
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('content-type'), asset).toMatch(/^(?:text\/css|application\/javascript|text\/javascript|image\/png)/);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
    // The page reads the document from the gateway, and asks no outside validator about it.
    const initializer = await (await fetch(`${origin}/docs/static/swagger-initializer.js`)).text();
    expect(initializer).toContain("resolveUrl('./json')");
    expect(initializer).toMatch(/validatorUrl: null/);
    expect(await (await fetch(`${origin}/docs/json`)).json()).toEqual(document);
  });

  it("sends /docs, its assets and its OAuth redirect page with the console's security headers: they share its origin", async () => {
    for (const path of ['/docs', '/docs/', '/docs/static/oauth2-redirect.html', '/docs/static/swagger-ui-bundle.js', '/docs/json']) {
      const response = await fetch(`${origin}${path}`);
      await response.arrayBuffer();
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy'), path).toBe(CONSOLE_CSP);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });
});
