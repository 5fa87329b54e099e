import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../server.js';
import { readJson } from '../test-support.testing.js';
import { SIM_DIMENSIONS, simVector } from './sim-vectors.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: 'Bearer sim' }) =>
  fetch(`${sim.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('simVector', () => {
  it('is a unit vector, the same for the same words, closer for texts sharing words', () => {
    const a = simVector('the capital of France');
    expect(a).toHaveLength(SIM_DIMENSIONS);
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    expect(simVector('The capital of France!')).toEqual(a);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    expect(dot(a, simVector('capital of France'))).toBeGreaterThan(dot(a, simVector('bananas are yellow')));
    expect(simVector('?', 4)).toEqual([1, 0, 0, 0]);
  });
});

describe('POST /v1/embeddings (OpenAI)', () => {
  it('answers the official client, floats and base64', async () => {
    const client = new OpenAI({ apiKey: 'sim', baseURL: `${sim.url}/v1` });
    const floats = await client.embeddings.create({ model: 'sim-embed', input: ['a b', 'c'], encoding_format: 'float', dimensions: 8 });
    expect(floats.data.map((d) => d.embedding)).toEqual([simVector('a b', 8), simVector('c', 8)]);
    expect(floats.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    // The client asks for base64 by default and decodes it.
    const decoded = await client.embeddings.create({ model: 'sim-embed', input: 'a b' });
    expect(decoded.data[0]!.embedding).toEqual(simVector('a b'));
  });

  it.each([
    ['a field OpenAI does not take', { model: 'm', input: 'x', task: 'retrieval.query' }, 'Unrecognized request argument supplied: task'],
    ['no input', { model: 'm' }, "Missing required parameter: 'input'."],
    ['an empty list', { model: 'm', input: [] }, "Invalid 'input': empty array."],
    ['an unknown encoding', { model: 'm', input: 'x', encoding_format: 'int8' }, "Invalid value: 'int8'."],
    ['an unknown knob', { model: 'm@colour=red', input: 'x' }, "Unknown simulator knob 'colour'"],
  ])('refuses %s with OpenAI’s 400', async (_, body, message) => {
    const response = await post('/v1/embeddings', body);
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain(message);
  });

  it('answers a status knob with OpenAI’s error body and Retry-After', async () => {
    const response = await post('/v1/embeddings', { model: 'sim-embed@status=429,retry_after=3', input: 'x' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect((await readJson(response)).error.code).toBe('rate_limit_exceeded');
  });
});

describe('POST /v2/embed (Cohere)', () => {
  it('answers vectors by type, the texts and billed input tokens', async () => {
    const response = await post('/v2/embed', {
      model: 'embed-v4.0',
      texts: ['a b'],
      input_type: 'search_query',
      embedding_types: ['float', 'base64'],
      output_dimension: 256,
    });
    const body = await readJson(response);
    expect(body).toEqual({
      id: expect.any(String),
      embeddings: { float: [simVector('a b', 256)], base64: [expect.any(String)] },
      texts: ['a b'],
      meta: { api_version: { version: '2' }, billed_units: { input_tokens: 2 } },
      response_type: 'embeddings_by_type',
    });
  });

  it.each([
    ['no input_type', { model: 'm', texts: ['x'] }, 'valid input_type must be provided'],
    ['97 texts', { model: 'm', texts: Array.from({ length: 97 }, () => 'x'), input_type: 'search_query' }, 'at most 96 - received 97'],
  ])('refuses %s with Cohere’s 400', async (_, body, message) => {
    const response = await post('/v2/embed', body);
    expect(response.status).toBe(400);
    expect((await readJson(response)).message).toContain(message);
  });
});

describe('POST /jina/v1/embeddings (Jina)', () => {
  it('answers OpenAI’s list shape with the model and usage', async () => {
    const body = await readJson(
      await post('/jina/v1/embeddings', { model: 'jina-embeddings-v3', input: ['a b'], task: 'retrieval.passage', dimensions: 32 }),
    );
    expect(body).toEqual({
      model: 'jina-embeddings-v3',
      object: 'list',
      usage: { total_tokens: 2, prompt_tokens: 2 },
      data: [{ object: 'embedding', index: 0, embedding: simVector('a b', 32) }],
    });
  });

  it('refuses an unknown task with FastAPI’s 422, and a status knob with {"detail"}', async () => {
    const invalid = await post('/jina/v1/embeddings', { model: 'm', input: ['x'], task: 'summarize' });
    expect(invalid.status).toBe(422);
    expect((await readJson(invalid)).detail[0].loc).toEqual(['body', 'task']);
    const failed = await post('/jina/v1/embeddings', { model: 'm@status=503', input: ['x'] });
    expect(failed.status).toBe(503);
    expect(await readJson(failed)).toEqual({ detail: 'internal server error' });
  });
});

describe('POST /v1beta/models/{model}:batchEmbedContents (Gemini)', () => {
  const request = (model: string, text: string) => ({ model: `models/${model}`, content: { parts: [{ text }] }, outputDimensionality: 8 });

  it('answers values in request order, without usage', async () => {
    const response = await post(
      '/v1beta/models/gemini-embedding-001:batchEmbedContents',
      { requests: [request('gemini-embedding-001', 'a'), request('gemini-embedding-001', 'b')] },
      { 'x-goog-api-key': 'k' },
    );
    expect(await readJson(response)).toEqual({ embeddings: [{ values: simVector('a', 8) }, { values: simVector('b', 8) }] });
  });

  it('refuses a request for another model, and no key, in Google’s words', async () => {
    const other = await post('/v1beta/models/e:batchEmbedContents', { requests: [request('f', 'a')] }, { 'x-goog-api-key': 'k' });
    expect(other.status).toBe(400);
    expect((await readJson(other)).error.status).toBe('INVALID_ARGUMENT');
    const anonymous = await post('/v1beta/models/e:batchEmbedContents', { requests: [request('e', 'a')] }, {});
    expect(anonymous.status).toBe(403);
  });

  it('puts a retry hint in the body for a status knob with retry_after', async () => {
    const response = await post(
      '/v1beta/models/e@status=429,retry_after=2:batchEmbedContents',
      { requests: [request('e@status=429,retry_after=2', 'a')] },
      { 'x-goog-api-key': 'k' },
    );
    expect(response.status).toBe(429);
    expect(JSON.stringify(await readJson(response))).toContain('"retryDelay":"2s"');
  });
});
