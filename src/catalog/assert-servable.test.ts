import { describe, expect, it } from 'vitest';
import { assertServable } from './assert-servable.js';
import { createCatalog } from './create-catalog.js';
import { RERANK, TEXT_ONLY } from './defaults.js';
import type { Model } from './types.js';

const provider = (id: string, kind: string) => ({ id, name: id, kind, baseUrl: 'https://x.test/v1', timeoutMs: 1_000 });
const model = (id: string, architecture: Model['architecture'], on: string): Model => ({
  id,
  name: id,
  description: '',
  created: 0,
  architecture,
  endpoints: [{ provider: on, upstreamModel: 'm', pricing: { prompt: 0, completion: 0 } }],
});
const KINDS = { chat: ['openai'], rerank: ['cohere', 'local'] };
const providers = [provider('acme', 'openai'), provider('co', 'cohere')];

describe('assertServable', () => {
  it('accepts chat models on chat kinds and rerank models on rerank kinds', () => {
    const catalog = createCatalog({ providers, models: [model('acme/chat', TEXT_ONLY, 'acme'), model('co/rerank', RERANK, 'co')] });
    expect(() => assertServable(catalog, KINDS)).not.toThrow();
  });

  it('refuses a rerank model on a chat-only kind, naming model, provider and kind', () => {
    const catalog = createCatalog({ providers, models: [model('acme/rerank', RERANK, 'acme')] });
    expect(() => assertServable(catalog, KINDS)).toThrow(
      'model "acme/rerank" is a rerank model, but its provider "acme" is of kind "openai", which does not serve rerank (kinds that do: cohere, local)',
    );
  });

  it('refuses a chat model on a rerank-only kind', () => {
    const catalog = createCatalog({ providers, models: [model('co/chat', TEXT_ONLY, 'co')] });
    expect(() => assertServable(catalog, KINDS)).toThrow('model "co/chat" is a chat model');
  });
});
