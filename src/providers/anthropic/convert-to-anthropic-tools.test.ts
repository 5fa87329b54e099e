import { describe, expect, it } from 'vitest';
import type { FunctionTool } from '../../protocol/chat.js';
import { convertToAnthropicTools } from './convert-to-anthropic-tools.js';

const weather: FunctionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather by city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};
const ping: FunctionTool = { type: 'function', function: { name: 'ping' } };

describe('convertToAnthropicTools', () => {
  it('sends each function as a tool with its input schema, the empty object schema when it has none', () => {
    expect(convertToAnthropicTools([weather, ping], undefined, undefined)).toEqual({
      tools: [
        { name: 'get_weather', description: 'Weather by city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
        { name: 'ping', input_schema: { type: 'object', properties: {} } },
      ],
    });
  });

  it('passes a cache breakpoint on a tool through', () => {
    const cached = { ...weather, cache_control: { type: 'ephemeral' as const } };
    expect(convertToAnthropicTools([cached], undefined, undefined).tools?.[0]?.cache_control).toEqual({ type: 'ephemeral' });
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    ['required', { type: 'any' }],
    [
      { type: 'function', function: { name: 'get_weather' } },
      { type: 'tool', name: 'get_weather' },
    ],
  ] as const)('maps tool_choice %j to %j', (choice, expected) => {
    expect(convertToAnthropicTools([weather], choice, undefined).tool_choice).toEqual(expected);
  });

  it('maps parallel_tool_calls: false to disable_parallel_tool_use, on auto when no choice was given', () => {
    expect(convertToAnthropicTools([weather], undefined, false).tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(convertToAnthropicTools([weather], 'required', false).tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(convertToAnthropicTools([weather], undefined, true).tool_choice).toBeUndefined();
  });

  it('sends nothing without tools, even with a choice', () => {
    expect(convertToAnthropicTools([], 'required', false)).toEqual({});
    expect(convertToAnthropicTools(undefined, 'auto', undefined)).toEqual({});
  });
});
