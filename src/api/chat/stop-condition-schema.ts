import { Type } from 'typebox';
import { DiscriminatedUnion } from './union-schemas.js';

/**
 * When server tools stop, told apart by `type`. The spec and the canonical
 * ChatRequest take one condition object; the reference sends an array of them.
 */
export const StopServerToolsWhen = DiscriminatedUnion('type', [
  Type.Object({ type: Type.Literal('step_count_is'), step_count: Type.Integer() }),
  Type.Object({ type: Type.Literal('has_tool_call'), tool_name: Type.String({ minLength: 1 }) }),
  Type.Object({ type: Type.Literal('max_tokens_used'), max_tokens: Type.Integer() }),
  Type.Object({ type: Type.Literal('max_cost'), max_cost_in_dollars: Type.Number() }),
  Type.Object({ type: Type.Literal('finish_reason_is'), reason: Type.String({ minLength: 1 }) }),
]);
