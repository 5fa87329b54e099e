import type { ChatCompletion, ChatCompletionChunk, FinishReason } from '../../protocol/chat.js';
import { JSON_TOOL_NAME } from './convert-to-anthropic-json-output.js';

type Ending = { finish_reason: FinishReason; native_finish_reason?: string | null };

/**
 * A call of the JSON tool ends the answer as a reply would: `stop`, and
 * natively `end_turn` (what /messages reports), unless calls of the
 * client's own tools remain.
 */
function endingOf({ finish_reason: finish, native_finish_reason: native }: Ending, otherCalls: boolean): Ending {
  const replies = finish === 'tool_calls' && !otherCalls;
  return {
    finish_reason: replies ? 'stop' : finish,
    ...(native !== undefined ? { native_finish_reason: replies && native !== null ? 'end_turn' : native } : {}),
  };
}

/**
 * The answer to a request served with the forced JSON tool, as the client
 * asked for it (pure): the tool's input is the message's content, the JSON
 * text; its call is gone, and the finish reason is `stop` when no call of
 * the client's own tools remains. The model's prose around it is not the
 * JSON asked for and is left out (forced tool use leaves it none anyway). An
 * answer that did not call the tool (it called a client tool) is unchanged.
 */
export function convertJsonToolCompletion(completion: ChatCompletion): ChatCompletion {
  return {
    ...completion,
    choices: completion.choices.map((choice) => {
      const calls = choice.message.tool_calls ?? [];
      const json = calls.find((call) => call.function.name === JSON_TOOL_NAME);
      if (!json) return choice;
      const others = calls.filter((call) => call !== json);
      const { tool_calls: _, ...message } = choice.message;
      return {
        ...choice,
        message: { ...message, content: json.function.arguments, ...(others.length > 0 ? { tool_calls: others } : {}) },
        ...endingOf(choice, others.length > 0),
      };
    }),
  };
}

/**
 * The same for a stream, chunk by chunk as they arrive: the JSON tool's
 * argument deltas are content deltas, the other calls keep their order
 * (their indexes closed up), text deltas are left out, and a chunk left
 * with nothing to say is not sent.
 */
export async function* convertJsonToolChunks(chunks: AsyncIterable<ChatCompletionChunk>): AsyncGenerator<ChatCompletionChunk> {
  let jsonIndex: number | undefined;
  let otherCalls = false;
  for await (const chunk of chunks) {
    const choice = chunk.choices[0];
    if (!choice) {
      yield chunk;
      continue;
    }
    const { content: _, tool_calls: calls, ...delta } = choice.delta;
    let json = '';
    const others = (calls ?? []).flatMap((call) => {
      if (call.function?.name === JSON_TOOL_NAME) jsonIndex = call.index;
      if (call.index === jsonIndex) {
        json += call.function?.arguments ?? '';
        return [];
      }
      otherCalls = true;
      return [jsonIndex !== undefined && call.index > jsonIndex ? { ...call, index: call.index - 1 } : call];
    });
    const converted: ChatCompletionChunk['choices'][number] = {
      ...choice,
      delta: { ...delta, ...(json ? { content: json } : {}), ...(others.length > 0 ? { tool_calls: others } : {}) },
      ...endingOf(choice, otherCalls),
    };
    const empty = Object.keys(converted.delta).length === 0 && converted.finish_reason === null && !chunk.usage;
    if (!empty) yield { ...chunk, choices: [converted] };
  }
}
