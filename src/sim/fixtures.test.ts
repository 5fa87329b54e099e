import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingPath, resolveFixturesDir } from './fixtures.js';
import { type Simulator, startSimulator } from './server.js';
import { postChat, readJson, readSseData, readSseUntilFailure } from './test-support.testing.js';

const fixturesDir = resolveFixturesDir();
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ fixturesDir });
});
afterAll(() => sim.close());

const ask = (model: string, stream: boolean) => postChat(sim.url, { model, stream, messages: [{ role: 'user', content: 'replay' }] });
const recordedLines = (name: string) =>
  readFileSync(`${recordingPath(fixturesDir, name)}.chunks.txt`, 'utf8')
    .split('\n')
    .filter((line) => line !== '');

describe('replay of recorded Chat Completions streams', () => {
  it.each([
    ['openai/issue-15789-step-1', 'text deltas, then a no-argument tool call, then the usage chunk'],
    ['openai/groq-tool-call', 'a tool call with {} arguments in one chunk and x_groq usage on the finish chunk'],
    ['openai/deepseek-tool-call', 'reasoning_content deltas, then tool-call arguments in many pieces and cache-hit usage'],
    ['openai/mistral-text', 'plain text with usage on the finish chunk and no usage chunk'],
    ['openai/mistral-reasoning', 'delta.content as an array of thinking and text parts'],
    ['openai/azure-model-router.1', 'a leading prompt_filter_results chunk with empty id and model'],
  ])('reproduces %s: %s', async (name) => {
    const response = await ask(`fixture:${name}`, true);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const lines = recordedLines(name);
    expect(await readSseData(response)).toEqual([...lines, '[DONE]']);
  });

  it('frames every recorded line as one data-only event, exactly as OpenAI does', async () => {
    const name = 'openai/issue-15789-step-1';
    const raw = await (await ask(`fixture:${name}`, true)).text();
    expect(raw).toBe([...recordedLines(name), '[DONE]'].map((line) => `data: ${line}\n\n`).join(''));
  });

  it('applies the knobs to a replay', async () => {
    const { data, failure } = await readSseUntilFailure(await ask('fixture:openai/issue-15789-step-1@fail_after=2', true));
    expect(data).toEqual(recordedLines('openai/issue-15789-step-1').slice(0, 2));
    expect(failure).toBeInstanceOf(Error);
  });
});

describe('replay of recorded Chat Completions bodies', () => {
  it.each([
    ['openai/openai-text', 'a text completion with cached_tokens and reasoning_tokens details'],
    ['openai/deepseek-reasoning', 'reasoning_content and prompt cache hit/miss tokens'],
    ['openai/mistral-tool-call', 'tool_calls without type or index'],
  ])('reproduces %s: %s', async (name) => {
    const response = await ask(`fixture:${name}`, false);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(readFileSync(`${recordingPath(fixturesDir, name)}.json`, 'utf8'));
  });
});

describe('recordings that are not Chat Completions', () => {
  it.each([
    ['openai/openai-shell-local-multiturn.1', true, 'not a Chat Completions recording'],
    ['anthropic/anthropic-text', false, 'not a Chat Completions recording'],
    ['openai/no-such-recording', true, 'no recording openai/no-such-recording'],
    ['openai/openai-text', true, 'no streaming recording'],
    ['openai/mistral-text', false, 'no non-streaming recording'],
    ['../../etc/passwd', false, 'is not <adapter>/<recording>'],
  ])('answers %s (stream: %s) with model_not_found', async (name, stream, reason) => {
    const response = await ask(`fixture:${name}`, stream);
    expect(response.status).toBe(404);
    const { error } = await readJson(response);
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found' });
    expect(error.message).toContain(reason);
  });
});
