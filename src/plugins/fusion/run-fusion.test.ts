import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../protocol/gateway-error.js';
import type { InnerCall, InnerCalls } from '../server-tools/server-tool.js';
import { fusionSettings } from './fusion-settings.js';
import { runFusion } from './run-fusion.js';

const settings = fusionSettings({ analysis_models: ['a/x', 'b/y'], model: 'c/z', max_tool_calls: 3 }, () => true);
const question = [{ role: 'user' as const, content: 'How far is the Moon?' }];
const signal = new AbortController().signal;

/** Inner calls that answer with their model's name, cost 0.1 each, failing for the models listed. */
function innerCalls(failing: string[] = []): { inner: InnerCalls; calls: InnerCall[] } {
  const calls: InnerCall[] = [];
  let n = 0;
  const inner: InnerCalls = async (call) => {
    calls.push(call);
    if (failing.includes(call.model)) throw new Error(`${call.model} is down`);
    return { generationId: `gen-${++n}`, model: call.model, content: `answer of ${call.model}`, cost: 0.1 };
  };
  return { inner, calls };
}

describe('runFusion', () => {
  it('asks every panelist with the tools and step ceiling, then the analyst with their answers, and sums the inner cost', async () => {
    const { inner, calls } = innerCalls();
    const outcome = await runFusion(settings, question, inner, signal);
    expect(calls.map((c) => c.model)).toEqual(['a/x', 'b/y', 'c/z']);
    expect(calls[0]).toMatchObject({ serverTools: [{ type: 'service:web_search' }, { type: 'service:web_fetch' }], maxSteps: 3 });
    expect(calls[2]).toMatchObject({ temperature: 0, responseFormat: 'json_object', maxSteps: 3 });
    expect(calls[2]?.messages.at(-1)?.content).toContain('### Expert 2 (b/y)\nanswer of b/y');
    expect(outcome.analysis).toBe('answer of c/z');
    expect(outcome.innerCost).toBeCloseTo(0.3, 12);
    expect(outcome.entry).toMatchObject({
      type: 'plugin',
      name: 'fusion',
      summary: '2 of 2 panelists answered; c/z analyzed',
      data: {
        preset: null,
        panel: [
          { model: 'a/x', ok: true },
          { model: 'b/y', ok: true },
        ],
        analyst: { model: 'c/z' },
      },
    });
  });

  it('leaves a failed panelist out, and fails with a 502 when none answered or the analyst failed', async () => {
    const partial = await runFusion(settings, question, innerCalls(['a/x']).inner, signal);
    expect(partial.entry.data.panel).toEqual([
      { model: 'a/x', ok: false, error: 'a/x is down' },
      expect.objectContaining({ model: 'b/y', ok: true }),
    ]);
    const none = runFusion(settings, question, innerCalls(['a/x', 'b/y']).inner, signal);
    await expect(none).rejects.toBeInstanceOf(GatewayError);
    await expect(none).rejects.toMatchObject({
      statusCode: 502,
      message: 'Fusion failed: every analysis model failed (a/x: a/x is down; b/y: b/y is down)',
    });
    await expect(runFusion(settings, question, innerCalls(['c/z']).inner, signal)).rejects.toMatchObject({
      statusCode: 502,
      message: 'Fusion failed: the analyst c/z failed: c/z is down',
    });
  });
});
