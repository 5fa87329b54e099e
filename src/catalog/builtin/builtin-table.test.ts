import { Parameter } from '@openrouter/sdk/models';
import { describe, expect, it } from 'vitest';
import { TASK_TYPES } from '../../protocol/routing-vocabulary.js';
import { TRANSCRIPTION_FORMATS } from '../../protocol/transcription.js';
import { modelTask } from '../model-task.js';
import { BUILTIN_MODELS, BUILTIN_PROVIDERS } from './index.js';
import { BUILTIN_SCORES } from './model-scores.js';

// Guards against data-entry slips in the provider files.
const all = BUILTIN_PROVIDERS.flatMap((p) => p.offerings.map((o) => ({ provider: p.id, ...o })));
const offerings = all.filter((o) => modelTask(o.model) === 'chat');
const videoOfferings = all.filter((o) => modelTask(o.model) === 'video');
const REFERENCE_PARAMETERS = new Set<string>(Object.values(Parameter));

describe('the built-in table', () => {
  it('names each provider and each of its models once', () => {
    expect(new Set(BUILTIN_PROVIDERS.map((p) => p.id)).size).toBe(BUILTIN_PROVIDERS.length);
    for (const p of BUILTIN_PROVIDERS) expect(new Set(p.offerings.map((o) => o.model.id)).size, p.id).toBe(p.offerings.length);
  });

  it('describes a model hosted by several providers with one shared description', () => {
    for (const o of all) expect(BUILTIN_MODELS.get(o.model.id), o.model.id).toBe(o.model);
  });

  it('has model ids of the form vendor/name, https base URLs and plausible per-token prices', () => {
    for (const p of BUILTIN_PROVIDERS) expect(p.baseUrl).toMatch(/^https:\/\/[^/]+\/.*[^/]$/);
    for (const o of all) expect(o.model.id).toMatch(/^[a-z0-9-]+\/[a-z0-9.-]+$/);
    for (const o of offerings) {
      // Per token, not per million: no public price is above $0.0002 a token.
      for (const price of [o.pricing.prompt, o.pricing.completion]) {
        expect(price, o.model.id).toBeGreaterThan(0);
        expect(price, o.model.id).toBeLessThan(0.0002);
      }
      expect(o.pricing.completion, o.model.id).toBeGreaterThanOrEqual(o.pricing.prompt);
    }
  });

  it('stays within each model context and lists only parameters the reference knows', () => {
    for (const o of offerings) {
      expect(o.model.contextLength, o.model.id).toBeGreaterThan(0);
      expect(o.contextLength ?? o.model.contextLength!).toBeLessThanOrEqual(o.model.contextLength!);
      expect(o.maxCompletionTokens ?? 0).toBeLessThanOrEqual(o.model.contextLength!);
      expect(
        o.supportedParameters?.filter((name) => !REFERENCE_PARAMETERS.has(name)),
        o.model.id,
      ).toEqual([]);
    }
  });

  it('scores every built-in chat model for the routing plugins, each score 0–1, and no model it lacks', () => {
    const chatModels = [...BUILTIN_MODELS.values()].filter((m) => modelTask(m) === 'chat').map((m) => m.id);
    expect([...BUILTIN_SCORES.keys()].sort()).toEqual(chatModels.sort());
    for (const [id, scores] of BUILTIN_SCORES) {
      expect(scores.general, id).toBeDefined();
      expect(scores.coding, id).toBeDefined();
      for (const [task, value] of Object.entries(scores)) {
        expect(TASK_TYPES, id).toContain(task);
        expect(value, `${id} ${task}`).toBeGreaterThanOrEqual(0);
        expect(value, `${id} ${task}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('prices video models per second of video, between a cent and two dollars, and nothing per token', () => {
    expect(videoOfferings.map((o) => o.model.id)).toEqual(expect.arrayContaining(['google/veo-3.1', 'openai/sora-2', 'openai/sora-2-pro']));
    for (const o of videoOfferings) {
      expect(o.pricing.video_second, o.model.id).toBeGreaterThanOrEqual(0.01);
      expect(o.pricing.video_second, o.model.id).toBeLessThanOrEqual(2);
      expect([o.pricing.prompt, o.pricing.completion]).toEqual([0, 0]);
    }
  });

  it('declares the formats and the longest audio of each transcription model as OpenAI documents them', () => {
    const stt = Object.fromEntries(
      all.filter((o) => modelTask(o.model) === 'transcription').map((o) => [o.model.id, [o.responseFormats, o.maxAudioSeconds]]),
    );
    expect(stt).toEqual({
      'openai/whisper-1': [undefined, undefined],
      'openai/gpt-4o-transcribe': [['json', 'text'], 1500],
      'openai/gpt-4o-mini-transcribe': [['json', 'text'], 1500],
      'openai/gpt-4o-transcribe-diarize': [['json', 'text', 'diarized_json'], 1400],
    });
    for (const formats of Object.values(stt).map(([formats]) => formats ?? []))
      for (const format of formats as string[]) expect(TRANSCRIPTION_FORMATS).toContain(format);
  });
});
