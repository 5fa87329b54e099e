import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../protocol/gateway-error.js';
import { checkChatRequest } from './check-chat-request.js';
import type { ChatRequestBody } from './schemas.js';

const body = (fields: Partial<ChatRequestBody>): ChatRequestBody => ({ messages: [{ role: 'user', content: 'Hi' }], ...fields });

/** `count` patterns of exactly `length` characters each. */
const patterns = (count: number, length: number) => Array.from({ length: count }, () => 'p'.repeat(length));

describe('checkChatRequest', () => {
  it('accepts a body with none of the checked fields', () => {
    expect(() => checkChatRequest(body({}))).not.toThrow();
  });

  describe('reasoning_effort against reasoning.effort', () => {
    it.each([
      ['only reasoning_effort', { reasoning_effort: 'high' }],
      ['only reasoning.effort', { reasoning: { effort: 'low' } }],
      ['both, equal', { reasoning_effort: 'medium', reasoning: { effort: 'medium' } }],
      ['a null reasoning_effort beside an effort', { reasoning_effort: null, reasoning: { effort: 'low' } }],
      ['a null reasoning.effort beside the shorthand', { reasoning_effort: 'high', reasoning: { effort: null } }],
    ] satisfies [string, Partial<ChatRequestBody>][])('accepts %s', (_, fields) => {
      expect(() => checkChatRequest(body(fields))).not.toThrow();
    });

    it('refuses a disagreement with a 400 naming both fields', () => {
      const check = () => checkChatRequest(body({ reasoning_effort: 'high', reasoning: { effort: 'low' } }));
      expect(check).toThrow(GatewayError);
      expect(check).toThrow('reasoning_effort ("high") and reasoning.effort ("low") must not differ; set one of them');
      expect(catchError(check).statusCode).toBe(400);
    });
  });

  describe('the total length of auto-router model patterns', () => {
    it.each([
      ['auto-router allowed_models', { id: 'auto-router', allowed_models: patterns(64, 1024) }],
      ['auto-beta-router excluded_models', { id: 'auto-beta-router', excluded_models: patterns(64, 1024) }],
      // 65536 code points written as 131072 UTF-16 units: counted as JSON Schema's maxLength counts.
      ['characters outside the BMP', { id: 'auto-router', allowed_models: patterns(64, 1024).map((p) => p.replaceAll('p', '😀')) }],
    ] satisfies [string, NonNullable<ChatRequestBody['plugins']>[number]][])('accepts 65536 characters in %s', (_, plugin) => {
      expect(() => checkChatRequest(body({ plugins: [plugin] }))).not.toThrow();
    });

    it.each([
      ['allowed_models', 'auto-router'],
      ['excluded_models', 'auto-router'],
      ['allowed_models', 'auto-beta-router'],
      ['excluded_models', 'auto-beta-router'],
    ] as const)('refuses 65537 characters in %s of %s', (field, id) => {
      const plugins = [{ id: 'web' as const }, { id, [field]: [...patterns(64, 1024), 'p'] }];
      expect(() => checkChatRequest(body({ plugins }))).toThrow(`plugins[1].${field} must have at most 65536 characters in total`);
    });
  });

  describe('plugin ids', () => {
    it('accepts each id once, enabled or not', () => {
      expect(() => checkChatRequest(body({ plugins: [{ id: 'web' }, { id: 'response-healing', enabled: false }] }))).not.toThrow();
    });

    it('refuses an id named twice with a 400 naming the second entry', () => {
      const check = () => checkChatRequest(body({ plugins: [{ id: 'web' }, { id: 'response-healing' }, { id: 'web', enabled: false }] }));
      expect(check).toThrow('plugins[2].id "web" is already set: name each plugin once');
      expect(catchError(check).statusCode).toBe(400);
    });
  });

  describe('metadata keys', () => {
    it('accepts a key of 64 characters', () => {
      expect(() => checkChatRequest(body({ metadata: { ['k'.repeat(64)]: 'v' } }))).not.toThrow();
    });

    it('refuses a key of 65 characters', () => {
      expect(() => checkChatRequest(body({ metadata: { ['k'.repeat(65)]: 'v' } }))).toThrow(
        'metadata keys must be at most 64 characters long',
      );
    });
  });
});

function catchError(run: () => void): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
  }
  throw new Error('expected a GatewayError');
}
