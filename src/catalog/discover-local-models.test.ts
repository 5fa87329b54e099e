import { describe, expect, it, vi } from 'vitest';
import { CatalogError } from './catalog-error.js';
import { discoverLocalModels, discoverLocalServers } from './discover-local-models.js';

const answering = (status: number, body: unknown) =>
  vi.fn<typeof fetch>(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

describe('discoverLocalModels', () => {
  it('reads the OpenAI model list, and the context length vLLM adds to it', async () => {
    const fetchFn = answering(200, {
      object: 'list',
      data: [
        { id: 'llama3.2:3b', object: 'model', owned_by: 'library' },
        { id: 'Qwen/Qwen3-8B', object: 'model', owned_by: 'vllm', max_model_len: 40_960 },
        { object: 'model' },
      ],
    });
    await expect(discoverLocalModels('http://127.0.0.1:11434/v1', fetchFn, { apiKey: 'vk' })).resolves.toEqual([
      { id: 'llama3.2:3b' },
      { id: 'Qwen/Qwen3-8B', contextLength: 40_960 },
    ]);
    const [url, init] = fetchFn.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:11434/v1/models');
    expect(init?.headers).toMatchObject({ authorization: 'Bearer vk' });
  });

  it('fails with the server URL when the server errs, is down or answers something else', async () => {
    await expect(discoverLocalModels('http://h/v1', answering(500, {}))).rejects.toThrow('http://h/v1/models: HTTP 500');
    const down = vi.fn<typeof fetch>(async () => {
      throw new TypeError('fetch failed');
    });
    await expect(discoverLocalModels('http://h/v1', down)).rejects.toThrow(CatalogError);
    await expect(discoverLocalModels('http://h/v1', answering(200, { models: [] }))).rejects.toThrow(
      'did not answer with an OpenAI model list',
    );
  });
});

describe('discoverLocalServers', () => {
  it('asks each local server the environment enables, by provider id', async () => {
    const fetchFn = answering(200, { data: [{ id: 'm' }] });
    const env = { OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_COMPATIBLE_BASE_URL: 'http://box:1234/v1' };
    await expect(discoverLocalServers({ env, knownKinds: ['openai'] }, fetchFn)).resolves.toEqual({
      ollama: [{ id: 'm' }],
      local: [{ id: 'm' }],
    });
    expect(fetchFn.mock.calls.map(([url]) => url)).toEqual(['http://127.0.0.1:11434/v1/models', 'http://box:1234/v1/models']);
  });

  it('asks nothing when the config file declares the catalog', async () => {
    const fetchFn = answering(200, { data: [] });
    const config = { providers: [{ id: 'acme', kind: 'openai', base_url: 'https://acme.test/v1' }] };
    await expect(
      discoverLocalServers({ config, env: { OLLAMA_BASE_URL: 'http://h/v1' }, knownKinds: ['openai'] }, fetchFn),
    ).resolves.toEqual({});
    expect(fetchFn).not.toHaveBeenCalled();
  });
});
