import type { ChatCompletionChunk, FinishReason } from '../../protocol/chat.js';
import type { AnthropicStreamEvent, AnthropicUsage } from './anthropic-messages-api-types.js';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

type Delta = ChatCompletionChunk['choices'][number]['delta'];

/** What one stream has told so far, that later events build on. */
export interface AnthropicStreamState {
  readonly created: number;
  id: string;
  model: string;
  serviceTier?: string;
  usage: AnthropicUsage;
  stopReason: string | null;
  /** By content block index: the tool call's position among the calls, and whether arguments came for it. */
  toolCalls: Map<number, { index: number; hasArguments: boolean }>;
  /** message_stop came: the answer is whole. */
  stopped: boolean;
}

/** `created`: Anthropic sends no creation time, so it is when the stream began. */
export const createAnthropicStreamState = (created: number): AnthropicStreamState => ({
  created,
  id: '',
  model: '',
  usage: {},
  stopReason: null,
  toolCalls: new Map(),
  stopped: false,
});

/**
 * The canonical chunk for one event of a Messages stream, as it arrives, or
 * undefined for an event that carries nothing for the client (ping, block
 * boundaries, signatures, server tool blocks, event types added later).
 * message_start gives the role chunk; text, thinking and tool-input deltas
 * give content, reasoning and tool-call chunks (a tool call's position among
 * the calls is its index, whatever blocks come between); message_delta only
 * updates the state, and message_stop gives the final chunk, with the finish
 * reason and the usage: message_start's counts, updated by message_delta's
 * (output tokens, and the input counts when Anthropic reports them again,
 * which its cumulative counts then correct). An `error` event is the
 * caller's to raise.
 */
export function convertAnthropicStreamEvent(event: AnthropicStreamEvent, state: AnthropicStreamState): ChatCompletionChunk | undefined {
  switch (event.type) {
    case 'message_start': {
      const message = event.message ?? {};
      state.id = message.id ?? '';
      state.model = message.model ?? '';
      state.usage = countsOf(message.usage);
      if (message.usage?.service_tier != null) state.serviceTier = message.usage.service_tier;
      return chunk(state, { role: 'assistant' });
    }
    case 'content_block_start': {
      const block = event.content_block;
      if (block?.type === 'tool_use') {
        const call = { index: state.toolCalls.size, hasArguments: false };
        state.toolCalls.set(event.index ?? 0, call);
        return chunk(state, {
          tool_calls: [{ index: call.index, id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: '' } }],
        });
      }
      if (block?.type === 'text' && block.text) return chunk(state, { content: block.text });
      if (block?.type === 'thinking' && block.thinking) return chunk(state, { reasoning: block.thinking });
      return undefined;
    }
    case 'content_block_delta': {
      const delta = event.delta ?? {};
      if (delta.type === 'text_delta' && delta.text) return chunk(state, { content: delta.text });
      if (delta.type === 'thinking_delta' && delta.thinking) return chunk(state, { reasoning: delta.thinking });
      const call = state.toolCalls.get(event.index ?? 0);
      if (delta.type !== 'input_json_delta' || !call || !delta.partial_json) return undefined;
      call.hasArguments = true;
      return chunk(state, { tool_calls: [{ index: call.index, function: { arguments: delta.partial_json } }] });
    }
    case 'content_block_stop': {
      // A call without arguments streams no JSON at all; clients parse the arguments, so they get {}.
      const call = state.toolCalls.get(event.index ?? 0);
      if (!call || call.hasArguments) return undefined;
      call.hasArguments = true;
      return chunk(state, { tool_calls: [{ index: call.index, function: { arguments: '{}' } }] });
    }
    case 'message_delta':
      state.stopReason = event.delta?.stop_reason ?? state.stopReason;
      state.usage = { ...state.usage, ...countsOf(event.usage) };
      return undefined;
    case 'message_stop': {
      state.stopped = true;
      const final = chunk(state, {}, mapAnthropicStopReason(state.stopReason));
      if (state.stopReason !== null) final.choices[0]!.native_finish_reason = state.stopReason;
      final.usage = convertAnthropicUsage(state.usage);
      return final;
    }
    default:
      return undefined;
  }
}

/** The fields that hold a value: a null in message_delta's usage does not erase message_start's count. */
function countsOf(usage: AnthropicUsage | null | undefined): AnthropicUsage {
  return Object.fromEntries(Object.entries(usage ?? {}).filter(([, value]) => value != null));
}

function chunk(state: AnthropicStreamState, delta: Delta, finishReason: FinishReason = null): ChatCompletionChunk {
  return {
    id: state.id,
    object: 'chat.completion.chunk',
    created: state.created,
    model: state.model,
    ...(state.serviceTier !== undefined ? { service_tier: state.serviceTier } : {}),
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}
