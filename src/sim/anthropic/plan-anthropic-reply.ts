import type { ChatMessage, ToolChoice } from '../../protocol/chat.js';
import { planReply, type Reply, type SimChatRequest } from '../reply.js';
import { messageText, splitTokens } from '../tokens.js';
import type { SimMessagesRequest } from './sim-messages-request.js';

/** What the simulated Claude answers, before it is framed as a Message or as events. */
export interface AnthropicReply {
  /** The thinking text's pieces, when thinking is on. */
  thinking?: string[];
  /** The text or the tool call, as the OpenAI side plans it. */
  reply: Reply;
  stopReason: 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';
  stopSequence: string | null;
  inputTokens: number;
  /** Thinking included, as at Anthropic. */
  outputTokens: number;
}

const THINKING = 'The user wants a reply. A short, direct answer will do.';

/**
 * The deterministic reply to a Messages request: the same text or tool call
 * as the OpenAI side plans (a tool call when the choice forces one, or when
 * tools are given and the last user turn mentions the weather), preceded by
 * a short thinking text when thinking is on; under output_config.format,
 * the text is JSON valid against the schema. Thinking counts against
 * max_tokens, as at Anthropic.
 */
export function planAnthropicReply(request: SimMessagesRequest, chunks: number | undefined): AnthropicReply {
  const thinking = request.thinking !== undefined && request.thinking.type !== 'disabled' ? splitTokens(THINKING) : undefined;
  const thinkingTokens = thinking?.length ?? 0;
  const reply = planReply(toChatRequest(request, Math.max(0, request.max_tokens - thinkingTokens)), chunks);
  const stopSequence = reply.kind === 'text' ? (reply.stopSequence ?? null) : null;
  return {
    ...(thinking ? { thinking } : {}),
    reply,
    stopReason:
      reply.kind === 'tool_call'
        ? 'tool_use'
        : stopSequence !== null
          ? 'stop_sequence'
          : reply.finishReason === 'length'
            ? 'max_tokens'
            : 'end_turn',
    stopSequence,
    inputTokens: reply.usage.prompt_tokens,
    outputTokens: reply.usage.completion_tokens + thinkingTokens,
  };
}

/**
 * The request as the OpenAI-side planner reads it. A user turn made only of
 * tool results answers a tool call, as an OpenAI tool message (with their
 * text) does: the model then replies in text, reporting what the tools said,
 * which keeps agent loops finite and shows the results reached it.
 */
function toChatRequest(request: SimMessagesRequest, maxTokens: number): SimChatRequest {
  const messages: ChatMessage[] = request.system === undefined ? [] : [{ role: 'system', content: messageText(request.system) }];
  for (const { role, content } of request.messages) {
    const answersTools =
      role === 'user' && Array.isArray(content) && content.length > 0 && content.every((block) => block.type === 'tool_result');
    messages.push(
      answersTools
        ? { role: 'tool', tool_call_id: '', content: content.map((block) => messageText(block.content)).join(' ') }
        : { role, content: messageText(content) },
    );
  }
  return {
    model: request.model,
    messages,
    max_tokens: maxTokens,
    stop: request.stop_sequences ?? null,
    // Server tools (web search) are Anthropic's to run, never the client's to call.
    tools: request.tools
      ?.filter((tool) => !isServerTool(tool))
      .map((tool) => ({ type: 'function', function: { name: tool.name, parameters: tool.input_schema ?? { type: 'object' } } })),
    ...(request.tool_choice ? { tool_choice: toolChoice(request.tool_choice) } : {}),
    ...(request.output_config?.format
      ? { response_format: { type: 'json_schema', json_schema: { name: 'output', schema: request.output_config.format.schema } } }
      : {}),
  };
}

function toolChoice(choice: NonNullable<SimMessagesRequest['tool_choice']>): ToolChoice {
  switch (choice.type) {
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default:
      return choice.type;
  }
}

/** A tool Anthropic runs itself: it names a versioned type; client tools have none, or `custom`. */
export const isServerTool = (tool: { type?: string }) => tool.type !== undefined && tool.type !== 'custom';

/** The text of the last user turn, as a search would take it. */
export function lastUserTextOf(request: SimMessagesRequest): string {
  const last = request.messages.findLast((message) => message.role === 'user');
  return last ? messageText(last.content).trim() : '';
}
