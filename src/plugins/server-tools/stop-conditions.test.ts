import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_STEPS, firedCondition, type LoopState, stopConditions } from './stop-conditions.js';

const state = (over: Partial<LoopState> = {}): LoopState => ({
  steps: 1,
  called: new Set(['web_fetch']),
  tokens: 100,
  cost: 0.01,
  finishReason: 'tool_calls',
  ...over,
});

describe('stopConditions', () => {
  it('takes the request conditions, else a step ceiling', () => {
    expect(stopConditions(undefined)).toEqual([{ type: 'step_count_is', step_count: DEFAULT_MAX_STEPS }]);
    expect(stopConditions(undefined, 2)).toEqual([{ type: 'step_count_is', step_count: 2 }]);
    expect(stopConditions([{ type: 'max_cost', max_cost_in_dollars: 1 }], 2)).toEqual([{ type: 'max_cost', max_cost_in_dollars: 1 }]);
  });
});

describe('firedCondition', () => {
  it('fires each condition type at its threshold and not before', () => {
    expect(firedCondition([{ type: 'step_count_is', step_count: 2 }], state())).toBeUndefined();
    expect(firedCondition([{ type: 'step_count_is', step_count: 2 }], state({ steps: 2 }))).toBe('step_count_is 2');
    expect(firedCondition([{ type: 'has_tool_call', tool_name: 'web_search' }], state())).toBeUndefined();
    expect(firedCondition([{ type: 'has_tool_call', tool_name: 'web_fetch' }], state())).toBe('has_tool_call web_fetch');
    expect(firedCondition([{ type: 'max_tokens_used', max_tokens: 100 }], state())).toBeUndefined();
    expect(firedCondition([{ type: 'max_tokens_used', max_tokens: 99 }], state())).toBe('max_tokens_used 99');
    expect(firedCondition([{ type: 'max_cost', max_cost_in_dollars: 0.01 }], state())).toBeUndefined();
    expect(firedCondition([{ type: 'max_cost', max_cost_in_dollars: 0.005 }], state())).toBe('max_cost 0.005');
    expect(firedCondition([{ type: 'finish_reason_is', reason: 'length' }], state())).toBeUndefined();
    expect(firedCondition([{ type: 'finish_reason_is', reason: 'tool_calls' }], state())).toBe('finish_reason_is tool_calls');
  });

  it('stops on any condition (OR)', () => {
    const conditions = [
      { type: 'step_count_is' as const, step_count: 9 },
      { type: 'max_cost' as const, max_cost_in_dollars: 0.001 },
    ];
    expect(firedCondition(conditions, state())).toBe('max_cost 0.001');
  });
});
