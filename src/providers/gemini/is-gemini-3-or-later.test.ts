import { describe, expect, it } from 'vitest';
import { isGemini3OrLater } from './is-gemini-3-or-later.js';

describe('isGemini3OrLater', () => {
  it('recognises Gemini 3 and later ids', () => {
    for (const model of ['gemini-3-pro-preview', 'gemini-3-flash-preview', 'gemini-3.1-pro-preview', 'gemini-10-ultra']) {
      expect(isGemini3OrLater(model)).toBe(true);
    }
  });

  it('counts older, unknown and alias ids as older', () => {
    for (const model of ['gemini-2.5-pro', 'gemini-2.0-flash', 'gemini-1.5-pro', 'gemini-flash-latest', 'gemma-3-27b-it', 'sim-gemini']) {
      expect(isGemini3OrLater(model)).toBe(false);
    }
  });
});
