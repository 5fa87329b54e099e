import { pushAll } from '../../util/push-all.js';
import type { ChatRequestBody } from '../chat/schemas.js';
import type { MessagesRequestBody } from './schemas.js';

type ChatMessage = ChatRequestBody['messages'][number];
type UserPart = Exclude<Extract<ChatMessage, { role: 'user' }>['content'], string>[number];
type TextPart = Extract<UserPart, { type: 'text' }>;
type Block = Exclude<MessagesRequestBody['messages'][number]['content'], string>[number];
type Source =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type?: string; data: string };

const textPart = (text: string, cacheControl?: TextPart['cache_control']): TextPart => ({
  type: 'text',
  text,
  ...(cacheControl ? { cache_control: cacheControl } : {}),
});

/** A user block as a chat content part: text, an image (data URL or URL), a document (PDF as a file, text as text); other blocks have none. */
function userPart(block: Block): UserPart | undefined {
  switch (block.type) {
    case 'text':
      return textPart(block.text, block.cache_control);
    case 'image': {
      const source = block.source as Source;
      if (source.type === 'text') return undefined;
      return {
        type: 'image_url',
        image_url: { url: source.type === 'url' ? source.url : `data:${source.media_type};base64,${source.data}` },
      };
    }
    case 'document': {
      const source = block.source as Source;
      if (source.type === 'text') return textPart(source.data, block.cache_control);
      const filename = block.title ?? 'document.pdf';
      return {
        type: 'file',
        file: { filename, file_data: source.type === 'url' ? source.url : `data:${source.media_type};base64,${source.data}` },
      };
    }
    default:
      return undefined;
  }
}

/** A tool result's content as a tool message's text: its text blocks (a chat tool message carries text only). */
function toolResultText(content: Extract<Block, { type: 'tool_result' }>['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

function userMessages(content: Block[]): ChatMessage[] {
  // Tool results answer the previous turn's calls: they come first, as chat's tool messages, then the rest of the turn.
  const results: ChatMessage[] = content.flatMap((block) =>
    block.type === 'tool_result'
      ? [{ role: 'tool' as const, tool_call_id: block.tool_use_id, content: toolResultText(block.content) }]
      : [],
  );
  const parts = content.flatMap((block) => {
    const part = userPart(block);
    return part ? [part] : [];
  });
  return parts.length > 0 ? [...results, { role: 'user', content: parts }] : results;
}

function assistantMessage(content: Block[]): ChatMessage {
  const text = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const thinking = content.flatMap((block) => (block.type === 'thinking' ? [block.thinking] : [])).join('');
  const calls = content.flatMap((block) =>
    block.type === 'tool_use'
      ? [{ id: block.id, type: 'function' as const, function: { name: block.name, arguments: JSON.stringify(block.input) } }]
      : [],
  );
  return {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
    ...(thinking ? { reasoning: thinking } : {}),
  };
}

function toolChoice(choice: NonNullable<MessagesRequestBody['tool_choice']>): ChatRequestBody['tool_choice'] {
  switch (choice.type) {
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default:
      return choice.type;
  }
}

function thinkingReasoning(thinking: NonNullable<MessagesRequestBody['thinking']>): ChatRequestBody['reasoning'] {
  switch (thinking.type) {
    case 'enabled':
      return { max_tokens: thinking.budget_tokens };
    case 'adaptive':
      return { enabled: true };
    default:
      return { enabled: false };
  }
}

/**
 * Chat's reasoning for thinking and output_config.effort: the effort is
 * chat's effort of the same name (chat has xhigh and max too; each adapter
 * maps them as it maps chat's), beside thinking's budget; thinking turned
 * off stays off.
 */
function reasoning(body: MessagesRequestBody): Pick<ChatRequestBody, 'reasoning'> {
  const fromThinking = body.thinking ? thinkingReasoning(body.thinking) : undefined;
  const effort = body.output_config?.effort;
  if (effort == null || fromThinking?.enabled === false) return fromThinking ? { reasoning: fromThinking } : {};
  return { reasoning: { ...fromThinking, effort } };
}

/**
 * The chat-completions body a Messages body reads as (pure): what routes,
 * reserves, guards and records it, and what a provider that does not speak
 * Anthropic's API is sent. `system` becomes a system message; a user turn's
 * tool_result blocks become tool messages ahead of the rest of the turn;
 * an assistant turn's text, thinking and tool_use blocks its content,
 * reasoning and tool calls; images and PDF documents content parts.
 * Client tools become functions (Anthropic's own tools, which only an
 * Anthropic endpoint runs, have no counterpart); tool_choice `any` is
 * `required`, disable_parallel_tool_use is parallel_tool_calls false;
 * thinking's budget is reasoning.max_tokens, adaptive thinking reasoning
 * enabled, output_config.effort reasoning.effort; output_config.format is
 * response_format json_schema (named `output`, strict); stop_sequences is stop; metadata.user_id is the end user;
 * service_tier standard_only is the default tier. Signatures, redacted
 * thinking and blocks of types added later have no chat counterpart.
 */
export function convertMessagesRequest(body: MessagesRequestBody): ChatRequestBody {
  const messages: ChatMessage[] = [];
  if (typeof body.system === 'string') messages.push({ role: 'system', content: body.system });
  else if (body.system && body.system.length > 0)
    messages.push({ role: 'system', content: body.system.map((block) => textPart(block.text, block.cache_control)) });
  for (const message of body.messages) {
    if (typeof message.content === 'string') messages.push({ role: message.role, content: message.content });
    else if (message.role === 'user') pushAll(messages, userMessages(message.content));
    else messages.push(assistantMessage(message.content));
  }

  const tools = (body.tools ?? []).flatMap((tool) =>
    tool.type === undefined || tool.type === 'custom'
      ? [
          {
            type: 'function' as const,
            function: {
              name: tool.name,
              ...(tool.description !== undefined ? { description: tool.description } : {}),
              parameters: tool.input_schema ?? { type: 'object' },
            },
          },
        ]
      : [],
  );
  const choice = body.tool_choice;
  const chat: ChatRequestBody = {
    messages,
    max_tokens: body.max_tokens,
    stream: body.stream ?? false,
    ...(body.model !== undefined ? { model: body.model } : {}),
    ...(body.models !== undefined ? { models: body.models } : {}),
    ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
    ...(body.top_p !== undefined ? { top_p: body.top_p } : {}),
    ...(body.top_k !== undefined ? { top_k: body.top_k } : {}),
    ...(body.stop_sequences && body.stop_sequences.length > 0 ? { stop: body.stop_sequences } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(choice && tools.length > 0 ? { tool_choice: toolChoice(choice) } : {}),
    ...(choice && choice.type !== 'none' && choice.disable_parallel_tool_use ? { parallel_tool_calls: false } : {}),
    ...reasoning(body),
    ...(body.output_config?.format
      ? {
          response_format: { type: 'json_schema', json_schema: { name: 'output', schema: body.output_config.format.schema, strict: true } },
        }
      : {}),
    ...(typeof body.metadata?.user_id === 'string' ? { user: body.metadata.user_id } : {}),
    ...(body.service_tier ? { service_tier: body.service_tier === 'standard_only' ? 'default' : 'auto' } : {}),
    ...(body.cache_control ? { cache_control: body.cache_control } : {}),
    ...(body.provider !== undefined ? { provider: body.provider } : {}),
    ...(body.plugins !== undefined ? { plugins: body.plugins } : {}),
    ...(body.session_id !== undefined ? { session_id: body.session_id } : {}),
    ...(body.stop_server_tools_when !== undefined ? { stop_server_tools_when: body.stop_server_tools_when } : {}),
  };
  return chat;
}
