import { describe, expect, it } from 'vitest';
import { GatewayError } from '../protocol/gateway-error.js';
import { chatChunksOutput, errorTypeOf } from './stream-output.js';

const identity = { id: 'gen-1', created: 1, model: 'sim/fast', provider: 'alpha' };
/** What every chunk of the stream starts with: the run's identity. */
const chunkHead = { id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'sim/fast', provider: 'alpha' };
const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, cost: 0.001 };

/** chatChunksOutput over a writer that keeps its data lines. */
function recorded() {
  const lines: string[] = [];
  return { output: chatChunksOutput({ data: async (payload) => void lines.push(payload) }), lines };
}

describe('chatChunksOutput.end', () => {
  it('adds the usage chunk, with service_metadata when asked, when no chunk carried the usage', async () => {
    const { output, lines } = recorded();
    await output.end({ usage, usageSent: false, serviceMetadata: { attempt: 1 } }, identity);
    expect(lines.at(-1)).toBe('[DONE]');
    expect(JSON.parse(lines[0]!)).toEqual({
      ...chunkHead,
      choices: [],
      usage,
      service_metadata: { attempt: 1 },
    });
  });

  it('sends only [DONE] when a relayed chunk already carried the usage, and no service_metadata unasked', async () => {
    const sent = recorded();
    await sent.output.end({ usage, usageSent: true, serviceMetadata: { attempt: 1 } }, identity);
    expect(sent.lines).toEqual(['[DONE]']);
    const unasked = recorded();
    await unasked.output.end({ usage, usageSent: false }, identity);
    expect(JSON.parse(unasked.lines[0]!)).not.toHaveProperty('service_metadata');
  });
});

describe('chatChunksOutput.fail', () => {
  it("ends with the error chunk, its metadata naming the reference's error type beside the error's own, then [DONE]", async () => {
    const { output, lines } = recorded();
    await output.fail(new GatewayError('GW_ERR_UPSTREAM_FAILED', 502, 'mid-stream: gone', { provider_name: 'alpha' }), identity);
    expect(lines.at(-1)).toBe('[DONE]');
    expect(JSON.parse(lines[0]!)).toEqual({
      ...chunkHead,
      error: { code: 502, message: 'mid-stream: gone', metadata: { error_type: 'provider_unavailable', provider_name: 'alpha' } },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    });
  });

  it.each([
    [429, 'rate_limit_exceeded'],
    [402, 'payment_required'],
    [529, 'provider_overloaded'],
    [524, 'timeout'],
    [418, 'unmapped'],
  ])('names status %i %s', (status, type) => {
    expect(errorTypeOf(status)).toBe(type);
  });
});
