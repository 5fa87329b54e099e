import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../protocol/gateway-error.js';
import { outputsAny, readOutputModalities } from './output-modalities.js';

describe('readOutputModalities', () => {
  it('asks for text when absent, for everything when "all" is named', () => {
    expect(readOutputModalities(undefined)).toEqual(new Set(['text']));
    expect(readOutputModalities('text, all')).toBeUndefined();
  });

  it('reads a comma-separated list, audio covering the speech models', () => {
    expect(readOutputModalities(' Image,audio ')).toEqual(new Set(['image', 'audio', 'speech']));
  });

  it('refuses an unknown or empty list, naming the field and what it got', () => {
    expect(() => readOutputModalities('text,smell')).toThrow(GatewayError);
    expect(() => readOutputModalities('text,smell')).toThrow(/output_modalities must be .*; got "smell"/);
    expect(() => readOutputModalities(' , ')).toThrow(/output_modalities/);
  });
});

describe('outputsAny', () => {
  it('keeps a model that puts out any modality asked for, every model for "all"', () => {
    expect(outputsAny(['text'], new Set(['image']))).toBe(false);
    expect(outputsAny(['text', 'image'], new Set(['image']))).toBe(true);
    expect(outputsAny(['rerank'], undefined)).toBe(true);
  });
});
