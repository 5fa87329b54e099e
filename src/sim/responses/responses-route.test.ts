import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../server.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const json = async (response: Response): Promise<any> => response.json();

const post = (body: unknown, headers: Record<string, string> = { authorization: 'Bearer k' }) =>
  fetch(`${sim.url}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** Each SSE frame's event name and parsed data, as sent. */
async function frames(response: Response): Promise<{ event: string | undefined; data: any }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      return { event, data: JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6)) };
    });
}

describe('POST /v1/responses', () => {
  it('answers a Response echoing the input, with usage', async () => {
    const res = await post({ model: 'sim-model', input: 'hello there', instructions: 'Be brief.' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      id: expect.stringMatching(/^resp_/),
      object: 'response',
      status: 'completed',
      model: 'sim-model',
      instructions: 'Be brief.',
      store: true,
      output: [
        {
          type: 'message',
          role: 'assistant',
          id: expect.stringMatching(/^msg_/),
          content: [{ type: 'output_text', text: expect.stringContaining('hello there') }],
        },
      ],
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
  });

  it('streams named typed events and no [DONE]', async () => {
    const res = await post({ model: 'sim-model@chunks=3', input: 'hello', stream: true });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const sent = await frames(res);
    for (const { event, data } of sent) expect(event).toBe(data.type);
    expect(sent.map((f) => f.data.sequence_number)).toEqual(sent.map((_, i) => i));
    expect(sent.filter((f) => f.event === 'response.output_text.delta')).toHaveLength(3);
    expect(sent.at(-1)?.event).toBe('response.completed');
  });

  it('calls a function tool, and reports reasoning tokens by effort', async () => {
    const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    const called = await json(await post({ model: 'sim-model', input: 'weather in Paris?', tools }));
    expect(called.output[0]).toMatchObject({ type: 'function_call', name: 'get_weather', call_id: expect.stringMatching(/^call_/) });
    const high = await json(await post({ model: 'sim-reason-model', input: 'x', reasoning: { effort: 'high' } }));
    const low = await json(await post({ model: 'sim-reason-model', input: 'x', reasoning: { effort: 'low' } }));
    expect(high.usage.output_tokens_details.reasoning_tokens).toBeGreaterThan(low.usage.output_tokens_details.reasoning_tokens);
  });

  it("refuses what OpenAI refuses, in OpenAI's error shape", async () => {
    const cases: [unknown, Record<string, string> | undefined, number, string | null][] = [
      [{ model: 'sim-model', input: 'x' }, {}, 401, null],
      [{ model: 'sim-model' }, undefined, 400, 'input'],
      [{ model: 'sim-model', input: [{ type: 'nope' }] }, undefined, 400, 'input[0].type'],
      [{ model: 'sim-model', input: [{ type: 'function_call_output', output: 'x' }] }, undefined, 400, 'input[0].call_id'],
      [{ model: 'sim-model', input: 'x', text: { format: { type: 'json_schema', name: 'p' } } }, undefined, 400, 'text.format.schema'],
      [{ model: 'sim-model', input: 'x', reasoning: { effort: 'huge' } }, undefined, 400, 'reasoning.effort'],
      [{ model: 'sim-model', input: 'x', previous_response_id: 'resp_1' }, undefined, 400, 'previous_response_id'],
      [{ model: 'sim-model@status=503', input: 'x' }, undefined, 503, null],
    ];
    for (const [body, headers, status, param] of cases) {
      const res = await post(body, headers);
      expect(res.status).toBe(status);
      const error = (await json(res)).error;
      expect(error).toMatchObject({ message: expect.any(String), type: expect.any(String) });
      if (param) expect(error.param).toBe(param);
    }
  });

  it('ends a failing stream as OpenAI does: an error event, then response.failed, numbered after the last event sent', async () => {
    const sent = await frames(await post({ model: 'sim-model@fail_after=3,fail_mode=error-event', input: 'hello', stream: true }));
    expect(sent).toHaveLength(5);
    expect(sent.at(-2)).toEqual({
      event: 'error',
      data: {
        type: 'error',
        sequence_number: 3,
        error: { type: 'server_error', code: 'server_error', message: expect.any(String), param: null },
      },
    });
    expect(sent.at(-1)).toMatchObject({
      event: 'response.failed',
      data: { type: 'response.failed', sequence_number: 4, response: { status: 'failed', error: { code: 'server_error' } } },
    });
  });
});
