import { describe, expect, it } from 'vitest';
import type { ResponseFormat } from '../../protocol/chat.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import type { AnthropicTool } from './anthropic-messages-api-types.js';
import { anthropicJsonOutputMode, convertToAnthropicJsonOutput, JSON_TOOL_NAME } from './convert-to-anthropic-json-output.js';

const target: UpstreamTarget = {
  providerId: 'anthropic',
  kind: 'anthropic',
  baseUrl: 'https://api.anthropic.com/v1',
  upstreamModel: 'claude-sonnet-4-5-20250929',
  timeoutMs: 60_000,
};
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const jsonSchema: ResponseFormat = { type: 'json_schema', json_schema: { name: 'place', schema, strict: true } };
const weather: AnthropicTool = { name: 'get_weather', input_schema: { type: 'object' } };

describe('anthropicJsonOutputMode', () => {
  const mode = (format: ResponseFormat | undefined, supported?: string[]) =>
    anthropicJsonOutputMode({ response_format: format }, { ...target, ...(supported ? { supportedParameters: supported } : {}) });

  it('serves a schema natively where the endpoint lists structured_outputs, or lists nothing', () => {
    expect(mode(jsonSchema, ['response_format', 'structured_outputs'])).toBe('native');
    expect(mode(jsonSchema)).toBe('native');
  });

  it('falls back to the forced tool where the endpoint lists response_format alone, and for json_object everywhere', () => {
    expect(mode(jsonSchema, ['response_format'])).toBe('tool');
    expect(mode({ type: 'json_object' }, ['response_format', 'structured_outputs'])).toBe('tool');
    expect(mode({ type: 'json_schema', json_schema: { name: 'any' } })).toBe('tool');
  });

  it('serves nothing for text or no format, nor where the endpoint lists neither', () => {
    expect(mode(undefined)).toBeUndefined();
    expect(mode({ type: 'text' })).toBeUndefined();
    expect(mode(jsonSchema, ['tools'])).toBeUndefined();
  });
});

describe('convertToAnthropicJsonOutput', () => {
  it('natively: output_config.format with the schema as Anthropic takes it', () => {
    expect(convertToAnthropicJsonOutput(jsonSchema, 'native', {})).toStrictEqual({
      output_config: { format: { type: 'json_schema', schema: { ...schema, additionalProperties: false } } },
    });
  });

  it('with the tool: the schema as its input schema, the tool forced', () => {
    expect(convertToAnthropicJsonOutput(jsonSchema, 'tool', {})).toStrictEqual({
      tools: [{ name: JSON_TOOL_NAME, description: expect.any(String), input_schema: schema }],
      tool_choice: { type: 'tool', name: JSON_TOOL_NAME },
    });
  });

  it('json_object: an open object schema; the schema description is the tool description', () => {
    expect(convertToAnthropicJsonOutput({ type: 'json_object' }, 'tool', {}).tools?.[0]).toMatchObject({
      input_schema: { type: 'object' },
    });
    const described: ResponseFormat = { type: 'json_schema', json_schema: { name: 'p', description: 'A place', schema } };
    expect(convertToAnthropicJsonOutput(described, 'tool', {}).tools?.[0]).toMatchObject({ description: 'A place' });
  });

  it("with the client's tools: `any` (keeping one call at a time), a named tool stays forced, `none` forces the JSON tool", () => {
    const withTools = (choice?: Parameters<typeof convertToAnthropicJsonOutput>[2]['tool_choice']) =>
      convertToAnthropicJsonOutput(jsonSchema, 'tool', { tools: [weather], ...(choice ? { tool_choice: choice } : {}) });
    expect(withTools().tool_choice).toStrictEqual({ type: 'any' });
    expect(withTools().tools?.map((tool) => tool.name)).toStrictEqual(['get_weather', JSON_TOOL_NAME]);
    expect(withTools({ type: 'auto', disable_parallel_tool_use: true }).tool_choice).toStrictEqual({
      type: 'any',
      disable_parallel_tool_use: true,
    });
    expect(withTools({ type: 'tool', name: 'get_weather' }).tool_choice).toStrictEqual({ type: 'tool', name: 'get_weather' });
    expect(withTools({ type: 'none' }).tool_choice).toStrictEqual({ type: 'tool', name: JSON_TOOL_NAME });
  });

  it('sends nothing for a format that is not JSON', () => {
    expect(convertToAnthropicJsonOutput({ type: 'text' }, 'tool', {})).toStrictEqual({});
  });
});
