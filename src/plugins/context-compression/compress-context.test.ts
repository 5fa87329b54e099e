import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../protocol/chat.js';
import { GatewayError } from '../../protocol/gateway-error.js';
import { loadTokenCounter, type TokenCounter } from '../shared/token-counter.js';
import { compressContext } from './compress-context.js';

let tokens: TokenCounter;
beforeAll(async () => {
  tokens = await loadTokenCounter();
});

const turn = (i: number): ChatMessage => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} `.repeat(100) });
const LONG: ChatRequest = { messages: [{ role: 'system', content: 'Be brief.' }, ...Array.from({ length: 9 }, (_, i) => turn(i))] };

describe('compressContext', () => {
  it('compresses to the smallest known context less the completion it reserves', () => {
    const { request, entry } = compressContext({ ...LONG, max_completion_tokens: 200 }, [undefined, 4_000, 1_200], tokens);
    expect(entry.type).toBe('context_compression');
    expect(entry.data).toMatchObject({ engine: 'middle-out', context_length: 1_200, reserved_for_completion: 200, budget: 1_000 });
    expect(entry.data.tokens_after).toBeLessThanOrEqual(1_000);
    expect(entry.summary).toMatch(/^removed \d+ messages: \d+ → \d+ of 1000 tokens$/);
    expect(request.messages[0]).toEqual(LONG.messages[0]);
    expect(request.messages.at(-1)).toEqual(LONG.messages.at(-1));
    expect(request.messages.length).toBeLessThan(LONG.messages.length);
  });

  it('leaves a prompt that fits, and says so', () => {
    const { request, entry } = compressContext(LONG, [100_000], tokens);
    expect(request).toBe(LONG);
    expect(entry.summary).toMatch(/^prompt fits: \d+ of 100000 tokens$/);
  });

  it('skips, saying why, when no planned endpoint states its context length', () => {
    const { request, entry } = compressContext(LONG, [undefined], tokens);
    expect(request).toBe(LONG);
    expect(entry).toMatchObject({ summary: 'skipped: no planned endpoint states its context length', data: { skipped: true } });
  });

  it('is a 400 with the numbers when the prompt cannot fit', () => {
    const error = (() => {
      try {
        compressContext(
          {
            messages: [
              { role: 'system', content: 'rule '.repeat(500) },
              { role: 'user', content: 'hi' },
            ],
          },
          [300],
          tokens,
        );
      } catch (e) {
        return e;
      }
    })() as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(
      /^The prompt is \d+ tokens even after context-compression, more than the 300 tokens the model's context leaves for it$/,
    );
    expect(error.metadata).toMatchObject({ context_length: 300, budget: 300 });
  });
});
