import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../protocol/gateway-error.js';
import { DEFAULT_FUSION_TOOLS, FUSION_PRESETS, fusionSettings } from './fusion-settings.js';

const servedAll = () => true;
const servedOnly =
  (...ids: string[]) =>
  (model: string) =>
    ids.includes(model);

describe('fusionSettings', () => {
  it('expands the quality preset when nothing is named, with the default ceiling and tools', () => {
    expect(fusionSettings({}, servedAll)).toEqual({
      preset: 'general-high',
      analysisModels: [...FUSION_PRESETS['general-high'].analysis_models],
      model: FUSION_PRESETS['general-high'].model,
      maxToolCalls: 4,
      tools: DEFAULT_FUSION_TOOLS,
    });
  });

  it('expands each preset server-side; explicit fields win over it', () => {
    for (const preset of ['general-high', 'general-budget', 'general-fast'] as const) {
      expect(fusionSettings({ preset }, servedAll)).toMatchObject({
        preset,
        analysisModels: FUSION_PRESETS[preset].analysis_models,
        model: FUSION_PRESETS[preset].model,
      });
    }
    expect(fusionSettings({ preset: 'general-fast', model: 'a/x' }, servedAll)).toMatchObject({
      analysisModels: FUSION_PRESETS['general-fast'].analysis_models,
      model: 'a/x',
    });
    expect(fusionSettings({ preset: 'general-fast', analysis_models: ['a/x', 'a/y'], model: 'a/z' }, servedAll)).toMatchObject({
      preset: null,
      analysisModels: ['a/x', 'a/y'],
      model: 'a/z',
    });
    expect(fusionSettings({ max_tool_calls: 9, tools: [], temperature: 0.3, max_completion_tokens: 500 }, servedAll)).toMatchObject({
      maxToolCalls: 9,
      tools: [],
      temperature: 0.3,
      maxCompletionTokens: 500,
    });
  });

  it('keeps the preset models the gateway serves, and takes the caller model as analyst before the preset', () => {
    const served = servedOnly('openai/gpt-5', 'google/gemini-2.5-pro');
    expect(fusionSettings({}, served)).toMatchObject({ analysisModels: ['openai/gpt-5', 'google/gemini-2.5-pro'], model: 'openai/gpt-5' });
    expect(fusionSettings({}, servedAll, 'sim/outer')).toMatchObject({ model: 'sim/outer' });
  });

  it('refuses models the gateway does not serve, naming the field', () => {
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as GatewayError;
      }
      throw new Error('no error');
    };
    expect(error(() => fusionSettings({ analysis_models: ['a/x', 'a/nope'] }, servedOnly('a/x'))).message).toBe(
      'plugins fusion analysis_models[1]: model a/nope is not served by this gateway',
    );
    expect(error(() => fusionSettings({ analysis_models: ['a/x'], model: 'a/nope' }, servedOnly('a/x'))).statusCode).toBe(400);
    expect(error(() => fusionSettings({ preset: 'general-fast' }, servedOnly())).message).toContain(
      'plugins fusion preset "general-fast": none of its models',
    );
  });
});
