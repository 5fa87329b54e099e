import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingPath, resolveFixturesDir } from '../fixtures.js';
import { type Simulator, startSimulator } from '../server.js';
import { readJson, readSimStats, readSseData, readSseUntilFailure } from '../test-support.testing.js';

const fixturesDir = resolveFixturesDir();
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ fixturesDir });
});
afterAll(() => sim.close());

const ask = (text: string, extra: Record<string, unknown> = {}) => ({ contents: [{ role: 'user', parts: [{ text }] }], ...extra });

function postGemini(
  model: string,
  body: unknown,
  { stream = false, headers = { 'x-goog-api-key': 'test-key' } as Record<string, string>, query = '' } = {},
): Promise<Response> {
  const method = stream ? `streamGenerateContent?alt=sse${query}` : `generateContent${query ? `?${query.slice(1)}` : ''}`;
  return fetch(`${sim.url}/v1beta/models/${model}:${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const events = async (response: Response) => (await readSseData(response)).map((data) => JSON.parse(data));

const weatherTool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Weather',
      parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
};

describe('generateContent', () => {
  it('answers with a GenerateContentResponse echoing the last user text', async () => {
    const response = await postGemini('sim-gemini', ask('Hello there'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await readJson(response);
    expect(body).toEqual({
      candidates: [
        {
          content: { parts: [{ text: 'This is a simulated reply. You said: Hello there' }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 3,
        candidatesTokenCount: 11,
        totalTokenCount: 14,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 3 }],
      },
      modelVersion: 'sim-gemini',
      responseId: expect.stringMatching(/^[\w-]{23}$/),
    });
  });

  it('takes the key from ?key= too, and records what it received', async () => {
    const request = ask('Hi', { generationConfig: { temperature: 0.1 } });
    const response = await postGemini('sim-gemini', request, { headers: {}, query: '&key=test-key' });
    expect(response.status).toBe(200);
    expect((await readSimStats(sim.url)).lastRequestBody).toEqual(request);
  });

  it('refuses a request without a key the way Google does', async () => {
    const response = await postGemini('sim-gemini', ask('Hi'), { headers: {} });
    expect(response.status).toBe(403);
    expect((await readJson(response)).error).toMatchObject({
      code: 403,
      status: 'PERMISSION_DENIED',
      message: expect.stringContaining('unregistered callers'),
    });
  });

  it('calls the weather function when tools are given and the user asks about the weather', async () => {
    const body = await readJson(await postGemini('sim-gemini', ask('What is the weather in Paris?', { tools: [weatherTool] })));
    expect(body.candidates[0]).toEqual({
      content: { parts: [{ functionCall: { name: 'get_weather', args: { city: 'sim' } } }], role: 'model' },
      finishReason: 'STOP',
      index: 0,
    });
  });

  it('answers in text once the function response is in, or when calling is NONE', async () => {
    const afterCall = {
      contents: [
        { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 21 } } }] },
      ],
      tools: [weatherTool],
    };
    expect((await readJson(await postGemini('sim-gemini', afterCall))).candidates[0].content.parts[0]).toHaveProperty('text');
    const none = ask('What is the weather?', { tools: [weatherTool], toolConfig: { functionCallingConfig: { mode: 'NONE' } } });
    expect((await readJson(await postGemini('sim-gemini', none))).candidates[0].content.parts[0]).toHaveProperty('text');
  });

  it('thinks when asked, showing the thought summary only with includeThoughts', async () => {
    const shown = await readJson(
      await postGemini(
        'sim-gemini',
        ask('Hello there', { generationConfig: { thinkingConfig: { thinkingLevel: 'low', includeThoughts: true } } }),
      ),
    );
    const [thought, text] = shown.candidates[0].content.parts;
    expect(thought).toEqual({ text: expect.stringContaining('The user wrote: "Hello there"'), thought: true });
    expect(text.text).toMatch(/^This is a simulated reply/);
    expect(shown.usageMetadata.thoughtsTokenCount).toBeGreaterThan(0);

    const hidden = await readJson(
      await postGemini('sim-gemini', ask('Hello there', { generationConfig: { thinkingConfig: { thinkingBudget: 1024 } } })),
    );
    expect(hidden.candidates[0].content.parts).toHaveLength(1);
    expect(hidden.usageMetadata.thoughtsTokenCount).toBe(shown.usageMetadata.thoughtsTokenCount);

    const off = await readJson(
      await postGemini('sim-gemini', ask('Hello there', { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } })),
    );
    expect(off.usageMetadata).not.toHaveProperty('thoughtsTokenCount');
  });

  it('stops at maxOutputTokens with MAX_TOKENS, and follows responseJsonSchema', async () => {
    const limited = await readJson(await postGemini('sim-gemini', ask('Hello there', { generationConfig: { maxOutputTokens: 3 } })));
    expect(limited.candidates[0]).toMatchObject({ content: { parts: [{ text: 'This is a' }] }, finishReason: 'MAX_TOKENS' });
    const schema = { type: 'object', properties: { answer: { type: 'string' } } };
    const json = await readJson(
      await postGemini('sim-gemini', ask('Hi', { generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema } })),
    );
    expect(JSON.parse(json.candidates[0].content.parts[0].text)).toEqual({ answer: 'sim' });
  });

  it.each([
    [
      'an unknown generationConfig field',
      ask('Hi', { generationConfig: { max_tokens: 5 } }),
      `Unknown name "max_tokens" at 'generation_config': Cannot find field.`,
    ],
    ['an unknown top-level field', ask('Hi', { messages: [] }), 'Unknown name "messages": Cannot find field.'],
    ['no contents', { contents: [] }, 'contents is not specified'],
    [
      'a role other than user and model',
      { contents: [{ role: 'assistant', parts: [{ text: 'Hi' }] }] },
      'Please use a valid role: user, model.',
    ],
    ['empty parts', { contents: [{ role: 'user', parts: [] }] }, 'contents.parts must not be empty'],
    ['an unknown thinking level', ask('Hi', { generationConfig: { thinkingConfig: { thinkingLevel: 'extreme' } } }), 'thinking_level'],
    [
      'a budget beside a level',
      ask('Hi', { generationConfig: { thinkingConfig: { thinkingLevel: 'low', thinkingBudget: 10 } } }),
      'only set one',
    ],
  ])('refuses %s with 400 INVALID_ARGUMENT', async (_case, body, message) => {
    const response = await postGemini('sim-gemini', body);
    expect(response.status).toBe(400);
    expect((await readJson(response)).error).toEqual({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining(message) });
  });

  it('refuses a body that is not JSON', async () => {
    const response = await postGemini('sim-gemini', '{"contents": [');
    expect(response.status).toBe(400);
    expect((await readJson(response)).error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/^Invalid JSON payload received/),
    });
  });

  it('accepts the proto snake_case names as Google does', async () => {
    const response = await postGemini('sim-gemini', {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generation_config: { max_output_tokens: 2 },
    });
    expect((await readJson(response)).candidates[0].finishReason).toBe('MAX_TOKENS');
  });
});

describe('streamGenerateContent?alt=sse', () => {
  it('frames each event as data: …\\r\\n\\r\\n with no [DONE], the finish reason and usage on the last', async () => {
    const response = await postGemini('sim-gemini@chunks=3', ask('Hello there'), { stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const raw = await response.text();
    const frames = raw.split('\r\n\r\n');
    expect(frames.at(-1)).toBe('');
    expect(frames.slice(0, -1).every((frame) => frame.startsWith('data: {'))).toBe(true);
    const parsed = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice('data: '.length)));
    expect(parsed).toHaveLength(3);
    expect(parsed.map((event) => event.candidates[0].content.parts[0].text).join('')).toBe(
      'This is a simulated reply. You said: Hello there',
    );
    expect(parsed.slice(0, 2).every((event) => event.candidates[0].finishReason === undefined)).toBe(true);
    expect(parsed[2].candidates[0].finishReason).toBe('STOP');
    expect(parsed.map((event) => event.usageMetadata.candidatesTokenCount)).toEqual([3, 7, 11]);
  });

  it('streams a thought, then a whole function call, then an empty STOP event', async () => {
    const body = ask('Weather in Paris?', { tools: [weatherTool], generationConfig: { thinkingConfig: { includeThoughts: true } } });
    const parsed = await events(await postGemini('sim-gemini', body, { stream: true }));
    expect(parsed.map((event) => event.candidates[0].content.parts[0])).toEqual([
      { text: expect.stringContaining('The user wrote'), thought: true },
      { functionCall: { name: 'get_weather', args: { city: 'sim' } } },
      { text: '' },
    ]);
    expect(parsed.map((event) => event.candidates[0].finishReason)).toEqual([undefined, undefined, 'STOP']);
  });

  it('refuses a stream request without alt=sse', async () => {
    const response = await fetch(`${sim.url}/v1beta/models/sim-gemini:streamGenerateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'k' },
      body: JSON.stringify(ask('Hi')),
    });
    expect(response.status).toBe(400);
  });
});

describe('fault knobs', () => {
  it('answers a 429 with RESOURCE_EXHAUSTED, QuotaFailure and the RetryInfo of retry_after', async () => {
    const response = await postGemini('sim-gemini@status=429,retry_after=3', ask('Hi'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBeNull();
    const { error } = await readJson(response);
    expect(error).toMatchObject({
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      message: expect.stringContaining('exceeded your current quota'),
    });
    expect(error.details).toEqual([
      expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.QuotaFailure' }),
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' },
    ]);
  });

  it.each([
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
    [400, 'INVALID_ARGUMENT'],
    [404, 'NOT_FOUND'],
    [504, 'DEADLINE_EXCEEDED'],
    [502, 'INTERNAL'],
  ])('answers status %i with a Google %s body, from a header too', async (status, name) => {
    const response = await postGemini('sim-gemini', ask('Hi'), { headers: { 'x-goog-api-key': 'k', 'x-sim-status': String(status) } });
    expect(response.status).toBe(status);
    const { error } = await readJson(response);
    expect(error).toEqual({ code: status, status: name, message: expect.any(String) });
  });

  it('refuses an unknown knob with 400 INVALID_ARGUMENT', async () => {
    const response = await postGemini('sim-gemini@statuz=503', ask('Hi'));
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain("Unknown simulator knob 'statuz'");
  });

  it('breaks the stream after fail_after events, or ends it with a Google error event', async () => {
    const cut = await readSseUntilFailure(await postGemini('sim-gemini@chunks=4,fail_after=2', ask('Hello there'), { stream: true }));
    expect(cut.data).toHaveLength(2);
    expect(cut.failure).toBeInstanceOf(Error);
    const errored = await readSseData(
      await postGemini('sim-gemini@chunks=4,fail_after=1,fail_mode=error-event', ask('Hello there'), { stream: true }),
    );
    expect(errored).toHaveLength(2);
    expect(JSON.parse(errored[1] as string)).toEqual({ error: { code: 500, status: 'INTERNAL', message: expect.any(String) } });
  });

  it('sends truncated JSON with malformed', async () => {
    const response = await postGemini('sim-gemini@malformed=1', ask('Hi'));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
    const streamed = await readSseData(await postGemini('sim-gemini@malformed=1,chunks=3', ask('Hello there'), { stream: true }));
    expect(() => JSON.parse(streamed[1] as string)).toThrow();
  });
});

describe('replay of recorded Gemini traffic', () => {
  const recordedLines = (name: string) =>
    readFileSync(`${recordingPath(fixturesDir, name)}.chunks.txt`, 'utf8')
      .split('\n')
      .filter((line) => line !== '');

  it.each([
    ['gemini/google-text', 'text chunks, then an empty signed text with STOP'],
    ['gemini/google-tool-call', 'a whole function call, then an empty STOP event'],
    ['gemini/google-stream-no-args-tool-call', "Vertex AI's no-argument call and partialArgs"],
    ['gemini/issue-19758-prompt-block', 'a single promptFeedback event without candidates'],
  ])('streams %s byte for byte in Gemini framing: %s', async (name) => {
    const response = await postGemini(`fixture:${name}`, ask('replay'), { stream: true });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      recordedLines(name)
        .map((line) => `data: ${line}\r\n\r\n`)
        .join(''),
    );
  });

  it.each(['gemini/google-text', 'gemini/google-tool-call', 'gemini/issue-19758-prompt-block'])(
    'answers %s with the recorded body',
    async (name) => {
      const response = await postGemini(`fixture:${name}`, ask('replay'));
      expect(await response.text()).toBe(readFileSync(`${recordingPath(fixturesDir, name)}.json`, 'utf8'));
    },
  );

  it.each([
    ['gemini/google-429-retry-info', 429],
    ['gemini/google-thinking-level-minimal-unsupported', 400],
  ])('answers the recorded error %s with its status, streaming or not', async (name, status) => {
    const recorded = JSON.parse(readFileSync(`${recordingPath(fixturesDir, name)}.json`, 'utf8'));
    for (const stream of [false, true]) {
      const response = await postGemini(`fixture:${name}`, ask('replay'), { stream });
      expect(response.status).toBe(status);
      expect(await readJson(response)).toEqual(recorded);
    }
  });

  it('answers 404 NOT_FOUND for a recording that does not exist, or is not Gemini', async () => {
    for (const name of ['gemini/nope', 'openai/openai-text']) {
      const response = await postGemini(`fixture:${name}`, ask('replay'));
      expect(response.status).toBe(404);
      expect((await readJson(response)).error.status).toBe('NOT_FOUND');
    }
  });

  it('applies the knobs to a replay', async () => {
    const { data, failure } = await readSseUntilFailure(
      await postGemini('fixture:gemini/google-stream-no-args-tool-call@fail_after=3', ask('replay'), { stream: true }),
    );
    expect(data).toEqual(recordedLines('gemini/google-stream-no-args-tool-call').slice(0, 3));
    expect(failure).toBeInstanceOf(Error);
  });
});
