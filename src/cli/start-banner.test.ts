import { describe, expect, it } from 'vitest';
import type { Model } from '../catalog/types.js';
import { modelsByTask, noChatModelHint } from './start-banner.js';

const model = (...outputs: string[]) => ({ architecture: { output_modalities: outputs } }) as unknown as Pick<Model, 'architecture'>;

describe('modelsByTask', () => {
  it('counts models by what they are called for, leaving out tasks without any', () => {
    expect(modelsByTask([model('text'), model('text'), model('rerank'), model('video')])).toBe('2 chat, 1 rerank, 1 video');
    expect(modelsByTask([model('rerank')])).toBe('1 rerank');
    expect(modelsByTask([])).toBe('no models');
  });
});

describe('noChatModelHint', () => {
  it('says nothing when a chat model is enabled', () => {
    expect(noChatModelHint([model('text'), model('rerank')], ['openai'])).toBeUndefined();
  });

  it('names the variables of the providers an adapter speaks, the local servers, the config file and the demo', () => {
    const hint = noChatModelHint([model('rerank')], ['openai', 'anthropic']) ?? '';
    expect(hint).toContain('OPENAI_API_KEY');
    expect(hint).toContain('ANTHROPIC_API_KEY');
    expect(hint).not.toContain('GEMINI_API_KEY');
    expect(hint).toContain('OLLAMA_BASE_URL');
    expect(hint).toContain('GATEWAY_CONFIG');
    expect(hint).toContain('npm run demo');
  });
});
