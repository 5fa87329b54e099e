import { describe, expect, it } from 'vitest';
import { ToolCallDeltas } from './tool-call-deltas.js';

describe('ToolCallDeltas', () => {
  it('puts calls together from their deltas, in index order', () => {
    const deltas = new ToolCallDeltas();
    deltas.add([{ index: 1, id: 'call_b', type: 'function', function: { name: 'web_fetch', arguments: '' } }]);
    deltas.add([{ index: 0, id: 'call_a', type: 'function', function: { name: 'web_search', arguments: '{"qu' } }]);
    deltas.add([
      { index: 0, function: { arguments: 'ery":"moon"}' } },
      { index: 1, function: { arguments: '{"url":"https://a.test"}' } },
    ]);
    expect(deltas.done()).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'web_search', arguments: '{"query":"moon"}' } },
      { id: 'call_b', type: 'function', function: { name: 'web_fetch', arguments: '{"url":"https://a.test"}' } },
    ]);
  });

  it('has no calls when none came', () => {
    expect(new ToolCallDeltas().done()).toEqual([]);
  });
});
