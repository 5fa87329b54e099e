import { describe, expect, it } from 'vitest';
import type { ChatCompletion, ChatRequest } from '../../protocol/chat.js';
import { activePlugins } from '../plugin-configs.js';
import { noInnerCalls } from './no-inner-calls.testing.js';
import { type ServerTool, ServerToolRegistry } from './server-tool.js';
import { DEFAULT_MAX_STEPS, type StopCondition, stopConditions } from './stop-conditions.js';
import { completeWithServerTools, type ToolLoopOptions } from './tool-loop.js';

const echoTool: ServerTool = {
  name: 'echo_back',
  type: 'service:web_fetch',
  plugin: 'web-fetch',
  definition: () => ({
    type: 'function',
    function: { name: 'echo_back', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
  }),
  execute: async (args) => ({ content: `echo: ${(args as { text: string }).text}` }),
};

const answer = (message: ChatCompletion['choices'][number]['message']): ChatCompletion => ({
  id: 'c',
  object: 'chat.completion',
  created: 0,
  model: 'm',
  system_fingerprint: null,
  choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
});
const call = (name: string, args: string) => ({ id: `call_${name}`, type: 'function' as const, function: { name, arguments: args } });
const callsEcho = () => answer({ role: 'assistant', content: null, tool_calls: [call('echo_back', '{"text":"ping"}')] });
const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };
const active = new ServerToolRegistry([echoTool]).active(activePlugins([], [{ id: 'web-fetch' }]));
const options = (conditions: StopCondition[] = stopConditions(undefined)): ToolLoopOptions => ({
  signal: new AbortController().signal,
  model: 'm',
  inner: noInnerCalls,
  conditions,
  // One cent per token, so that cost thresholds are easy to reach.
  costOf: (usage) => usage.total_tokens * 0.01,
});

describe('ServerToolRegistry', () => {
  it('offers a tool while its plugin is in force or a tools entry asks for it, the entry parameters over the plugin fields', () => {
    const registry = new ServerToolRegistry([echoTool]);
    expect(registry.active(activePlugins([], undefined))).toEqual([]);
    expect(registry.active(activePlugins([], [{ id: 'web-fetch', enabled: false }]))).toEqual([]);
    expect(registry.active(activePlugins([], [{ id: 'web-fetch', max_uses: 2 }]))).toEqual([
      { tool: echoTool, config: { id: 'web-fetch', max_uses: 2 } },
    ]);
    expect(registry.active(activePlugins([], undefined), [{ type: 'service:web_fetch', parameters: { max_uses: 3 } }])).toEqual([
      { tool: echoTool, config: { id: 'web-fetch', max_uses: 3 } },
    ]);
    expect(
      registry.active(activePlugins([], [{ id: 'web-fetch', max_uses: 2, blocked_domains: ['x.test'] }]), [
        { type: 'service:web_fetch', parameters: { max_uses: 3 } },
      ]),
    ).toEqual([{ tool: echoTool, config: { id: 'web-fetch', max_uses: 3, blocked_domains: ['x.test'] } }]);
    expect(registry.active(activePlugins([], undefined), [{ type: 'service:web_search' }])).toEqual([]);
  });

  it('takes a settings-only plugin as defaults without turning the tool on', () => {
    const fusionLike: ServerTool = { ...echoTool, type: 'service:fusion', plugin: undefined, settings: 'fusion' } as ServerTool;
    const registry = new ServerToolRegistry([fusionLike]);
    expect(registry.active(activePlugins([], [{ id: 'fusion', max_tool_calls: 2 }]))).toEqual([]);
    expect(
      registry.active(activePlugins([], [{ id: 'fusion', max_tool_calls: 2 }]), [{ type: 'service:fusion', parameters: { model: 'a/b' } }]),
    ).toEqual([{ tool: fusionLike, config: { id: 'fusion', max_tool_calls: 2, model: 'a/b' } }]);
  });
});

describe('completeWithServerTools', () => {
  it('runs the server tool the model calls, sends the result back and returns the final answer with usage of every step', async () => {
    const seen: ChatRequest[] = [];
    const replies = [callsEcho(), answer({ role: 'assistant', content: 'done' })];
    const { result, entry } = await completeWithServerTools(
      request,
      active,
      async (r) => (seen.push(structuredClone(r)), replies.shift()!),
      options(),
    );
    expect(result.choices[0]?.message.content).toBe('done');
    expect(result.usage).toEqual({
      prompt_tokens: 20,
      completion_tokens: 4,
      total_tokens: 24,
      server_tool_use_details: { tool_calls_requested: 1, tool_calls_executed: 1, web_search_requests: 0 },
    });
    expect(seen[0]?.tools?.map((t) => t.function.name)).toEqual(['echo_back']);
    expect(seen[1]?.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_echo_back', content: 'echo: ping' });
    expect(entry).toMatchObject({ type: 'server_tools', data: { calls: [{ name: 'echo_back', ok: true }], rounds: 1 } });
  });

  it('returns an answer that calls a client tool to the client', async () => {
    const clientCall = answer({ role: 'assistant', content: null, tool_calls: [call('lookup', '{}')] });
    const { result, entry } = await completeWithServerTools(request, active, async () => clientCall, options());
    expect(result).toEqual(clientCall);
    expect(entry.data).toMatchObject({ rounds: 0, calls: [] });
  });

  it('gives the model an error result for bad arguments; after the step ceiling, one last turn without tools', async () => {
    const seen: ChatRequest[] = [];
    const { result, entry } = await completeWithServerTools(
      request,
      active,
      async (r) => (
        seen.push(r),
        r.tool_choice === 'none'
          ? answer({ role: 'assistant', content: 'words' })
          : answer({ role: 'assistant', content: null, tool_calls: [call('echo_back', 'not json')] })
      ),
      options(),
    );
    expect(seen).toHaveLength(DEFAULT_MAX_STEPS + 1);
    expect(seen.at(-1)?.tool_choice).toBe('none');
    expect(result.choices[0]?.message.content).toBe('words');
    expect(entry.data).toMatchObject({
      rounds: DEFAULT_MAX_STEPS,
      stopped_by: `step_count_is ${DEFAULT_MAX_STEPS}`,
      calls: expect.arrayContaining([{ name: 'echo_back', ok: false, error: expect.stringContaining('JSON') }]),
    });
  });

  it.each<[StopCondition, number]>([
    [{ type: 'step_count_is', step_count: 1 }, 1],
    [{ type: 'has_tool_call', tool_name: 'echo_back' }, 1],
    [{ type: 'max_tokens_used', max_tokens: 30 }, 3],
    [{ type: 'max_cost', max_cost_in_dollars: 0.2 }, 2],
    [{ type: 'finish_reason_is', reason: 'tool_calls' }, 1],
  ])('stop_server_tools_when %j ends the loop after %i steps', async (condition, steps) => {
    let turns = 0;
    const { result, entry } = await completeWithServerTools(
      request,
      active,
      async (r) => (turns++, r.tool_choice === 'none' ? answer({ role: 'assistant', content: 'final' }) : callsEcho()),
      options([condition]),
    );
    expect(turns).toBe(steps + 1);
    expect(result.choices[0]?.message.content).toBe('final');
    expect(entry.data).toMatchObject({ rounds: steps, stopped_by: expect.stringContaining(condition.type) });
  });

  it('tells each call how many times its tool already ran in the request, and counts searches and inner costs', async () => {
    const counts: number[] = [];
    const counting: ServerTool = {
      ...echoTool,
      execute: async (_, { calls }) => (counts.push(calls), { content: 'ok', webSearches: 1, innerCost: 0.5 }),
    };
    const twoCalls = answer({
      role: 'assistant',
      content: null,
      tool_calls: [call('echo_back', '{}'), { ...call('echo_back', '{}'), id: 'call_2' }],
    });
    const replies = [twoCalls, twoCalls, answer({ role: 'assistant', content: 'done' })];
    const tools = new ServerToolRegistry([counting]).active(activePlugins([], [{ id: 'web-fetch' }]));
    const { result, innerCost, entry } = await completeWithServerTools(request, tools, async () => replies.shift()!, options());
    expect(counts).toEqual([0, 1, 2, 3]);
    expect(result.usage?.server_tool_use_details).toEqual({ tool_calls_requested: 4, tool_calls_executed: 4, web_search_requests: 4 });
    expect(innerCost).toBe(2);
    expect(entry.data).toMatchObject({ inner_cost: 2 });
  });
});
