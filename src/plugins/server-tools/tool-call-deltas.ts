import type { ChunkToolCallDelta, ToolCall } from '../../protocol/chat.js';

/**
 * A streamed step's tool calls, put together from their deltas: the first
 * delta of an index brings the id and name, later ones pieces of the
 * arguments.
 */
export class ToolCallDeltas {
  private readonly calls = new Map<number, ToolCall>();

  add(deltas: readonly ChunkToolCallDelta[]): void {
    for (const delta of deltas) {
      const call = this.calls.get(delta.index) ?? { id: '', type: 'function' as const, function: { name: '', arguments: '' } };
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.function.name += delta.function.name;
      if (delta.function?.arguments) call.function.arguments += delta.function.arguments;
      this.calls.set(delta.index, call);
    }
  }

  /** The calls in index order. */
  done(): ToolCall[] {
    return [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  }
}
