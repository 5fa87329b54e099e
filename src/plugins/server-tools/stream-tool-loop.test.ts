import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk, ChatRequest } from '../../protocol/chat.js';
import { activePlugins } from '../plugin-configs.js';
import { noInnerCalls } from './no-inner-calls.testing.js';
import { type ServerTool, ServerToolRegistry } from './server-tool.js';
import { stopConditions } from './stop-conditions.js';
import { type StreamedLoopEnd, streamWithServerTools } from './stream-tool-loop.js';
import { ToolLoop } from './tool-loop.js';

const echoTool: ServerTool = {
  name: 'echo_back',
  type: 'service:web_fetch',
  plugin: 'web-fetch',
  definition: () => ({ type: 'function', function: { name: 'echo_back', parameters: { type: 'object' } } }),
  execute: async () => ({ content: 'echoed', webSearches: 1 }),
};
const active = new ServerToolRegistry([echoTool]).active(activePlugins([], [{ id: 'web-fetch' }]));
const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };

const chunk = (choices: ChatCompletionChunk['choices'], usage?: ChatCompletionChunk['usage']): ChatCompletionChunk => ({
  id: 'up',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices,
  ...(usage ? { usage } : {}),
});
const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };
/** A step that calls a tool, its arguments in two pieces. */
const callStep = (name: string) => [
  chunk([
    {
      index: 0,
      delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '{"a"' } }] },
      finish_reason: null,
    },
  ]),
  chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }, finish_reason: null }]),
  chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
  chunk([], usage),
];
const textStep = [
  chunk([{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }]),
  chunk([{ index: 0, delta: { content: 'lo' }, finish_reason: null }]),
  chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
  chunk([], usage),
];

async function* from(chunks: ChatCompletionChunk[]) {
  yield* chunks;
}

async function run(steps: ChatCompletionChunk[][]) {
  const opened: ChatRequest[] = [];
  const loop = new ToolLoop(request, active, {
    signal: new AbortController().signal,
    model: 'm',
    inner: noInnerCalls,
    conditions: stopConditions(undefined),
    costOf: () => 0,
  });
  let ended: StreamedLoopEnd | undefined;
  const [first, ...rest] = steps;
  const out: ChatCompletionChunk[] = [];
  const stream = streamWithServerTools(
    loop,
    from(first!),
    async (r) => (opened.push(structuredClone(r)), from(rest.shift()!)),
    (end) => (ended = end),
  );
  for await (const c of stream) out.push(c);
  return { out, opened, ended };
}

describe('streamWithServerTools', () => {
  it('runs a server-tool step unseen, then relays the answer as it comes, with the usage of both steps', async () => {
    const { out, opened, ended } = await run([callStep('echo_back'), textStep]);
    expect(out.map((c) => c.choices[0]?.delta)).toEqual([{ role: 'assistant' }, { content: 'Hel' }, { content: 'lo' }, {}]);
    expect(out.at(-1)).toMatchObject({
      choices: [{ finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 20,
        completion_tokens: 4,
        total_tokens: 24,
        server_tool_use_details: { tool_calls_requested: 1, tool_calls_executed: 1, web_search_requests: 1 },
      },
    });
    expect(opened[0]?.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'echo_back', arguments: '{"a":1}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'echoed' },
    ]);
    expect(ended?.entry.data).toMatchObject({ rounds: 1, calls: [{ name: 'echo_back', ok: true }] });
  });

  it('announces each server-tool call before it runs and after, with its result, when asked', async () => {
    const loop = new ToolLoop(request, active, {
      signal: new AbortController().signal,
      model: 'm',
      inner: noInnerCalls,
      conditions: stopConditions(undefined),
      costOf: () => 0,
    });
    const steps = [textStep];
    const stream = streamWithServerTools(
      loop,
      from(callStep('echo_back')),
      async () => from(steps.shift()!),
      () => {},
      (ran) => ({ ran }),
    );
    const out = [];
    for await (const piece of stream) out.push(piece);
    const announced = out.flatMap((piece) => ('ran' in piece ? [piece.ran] : []));
    expect(announced).toEqual([
      { call: { id: 'call_1', type: 'function', function: { name: 'echo_back', arguments: '{"a":1}' } } },
      { call: announced[0]?.call, result: { content: 'echoed', webSearches: 1 } },
    ]);
    // Announced after the role of the first step, before the answer's text.
    expect(out.findIndex((piece) => 'ran' in piece)).toBe(1);
    expect(loop.runs).toEqual([announced[1]]);
  });

  it('hands a client tool call to the client in one piece', async () => {
    const { out, opened } = await run([callStep('lookup')]);
    expect(opened).toEqual([]);
    expect(out.map((c) => c.choices[0])).toEqual([
      { index: 0, delta: { role: 'assistant' }, finish_reason: null },
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"a":1}' } }] },
        finish_reason: null,
      },
      { index: 0, delta: {}, finish_reason: 'tool_calls' },
    ]);
    expect(out.at(-1)?.usage).toEqual(usage);
  });
});
