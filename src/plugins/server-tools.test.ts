import { describe, expect, it } from 'vitest';
import type { ChatCompletion, ChatRequest } from '../chat/types.js';
import { activePlugins } from './plugin-configs.js';
import { completeWithServerTools, MAX_SERVER_TOOL_ROUNDS, ServerToolRegistry, type ServerTool } from './server-tools.js';

const echoTool: ServerTool = {
  name: 'echo_back',
  plugin: 'web-fetch',
  definition: () => ({ type: 'function', function: { name: 'echo_back', parameters: { type: 'object', properties: { text: { type: 'string' } } } } }),
  execute: async (args) => `echo: ${(args as { text: string }).text}`,
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
const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };
const active = new ServerToolRegistry([echoTool]).active(activePlugins([], [{ id: 'web-fetch' }]));
const signal = new AbortController().signal;

describe('ServerToolRegistry', () => {
  it('offers a tool only while its plugin is in force', () => {
    const registry = new ServerToolRegistry([echoTool]);
    expect(registry.active(activePlugins([], undefined))).toEqual([]);
    expect(registry.active(activePlugins([], [{ id: 'web-fetch', enabled: false }]))).toEqual([]);
    expect(registry.active(activePlugins([], [{ id: 'web-fetch', max_uses: 2 }]))).toEqual([{ tool: echoTool, config: { id: 'web-fetch', max_uses: 2 } }]);
  });
});

describe('completeWithServerTools', () => {
  it('runs the server tool the model calls, sends the result back and returns the final answer with usage of every round', async () => {
    const seen: ChatRequest[] = [];
    const replies = [answer({ role: 'assistant', content: null, tool_calls: [call('echo_back', '{"text":"ping"}')] }), answer({ role: 'assistant', content: 'done' })];
    const result = await completeWithServerTools(request, active, async (r) => (seen.push(r), replies.shift()!), signal);
    expect(result.completion.choices[0]?.message.content).toBe('done');
    expect(result.completion.usage).toEqual({ prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 });
    expect(seen[0]?.tools?.map((t) => t.function.name)).toEqual(['echo_back']);
    expect(seen[1]?.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_echo_back', content: 'echo: ping' });
    expect(result.entry).toMatchObject({ type: 'server_tools', data: { calls: [{ name: 'echo_back', ok: true }], rounds: 1 } });
  });

  it('returns an answer that calls a client tool to the client', async () => {
    const clientCall = answer({ role: 'assistant', content: null, tool_calls: [call('lookup', '{}')] });
    const result = await completeWithServerTools(request, active, async () => clientCall, signal);
    expect(result.completion).toEqual(clientCall);
    expect(result.entry.data).toMatchObject({ rounds: 0, calls: [] });
  });

  it('gives the model an error result for bad arguments, and stops after the last round', async () => {
    let rounds = 0;
    const result = await completeWithServerTools(request, active, async () => (rounds++, answer({ role: 'assistant', content: null, tool_calls: [call('echo_back', 'not json')] })), signal);
    expect(rounds).toBe(MAX_SERVER_TOOL_ROUNDS + 1);
    expect(result.entry.data).toMatchObject({ rounds: MAX_SERVER_TOOL_ROUNDS, calls: expect.arrayContaining([{ name: 'echo_back', ok: false }]) });
  });
});
