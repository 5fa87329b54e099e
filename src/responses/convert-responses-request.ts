import { CODE_INTERPRETER } from '../plugins/code-interpreter/code-interpreter-tool.js';
import type {
  AssistantMessage,
  ChatMessage,
  ChatRequest,
  ContentPart,
  FunctionTool,
  ReasoningEffort,
  ResponseFormat,
  TextPart,
  ToolChoice,
} from '../protocol/chat.js';
import type {
  ResponsesCodeInterpreterCall,
  ResponsesInputContent,
  ResponsesInputItem,
  ResponsesRequest,
  ResponsesTextFormat,
  ResponsesToolChoice,
} from '../protocol/responses.js';

/** The chat fields a Responses request sets: its conversation and the settings the Responses API names its own way. */
export type ConvertedResponsesRequest = Pick<
  ChatRequest,
  | 'messages'
  | 'tools'
  | 'tool_choice'
  | 'parallel_tool_calls'
  | 'response_format'
  | 'reasoning'
  | 'max_completion_tokens'
  | 'temperature'
  | 'top_p'
  | 'top_logprobs'
  | 'logprobs'
  | 'metadata'
  | 'user'
  | 'stream'
  | 'prompt_cache_key'
>;

function contentPart(part: ResponsesInputContent | { type: string; text?: string; refusal?: string }): ContentPart {
  switch (part.type) {
    case 'input_image': {
      const image = part as Extract<ResponsesInputContent, { type: 'input_image' }>;
      return { type: 'image_url', image_url: { url: image.image_url ?? '', ...(image.detail ? { detail: image.detail } : {}) } };
    }
    case 'input_file': {
      const file = part as Extract<ResponsesInputContent, { type: 'input_file' }>;
      const fileData = file.file_data ?? file.file_url;
      return {
        type: 'file',
        file: {
          ...(file.filename ? { filename: file.filename } : {}),
          ...(fileData ? { file_data: fileData } : {}),
          ...(file.file_id ? { file_id: file.file_id } : {}),
        },
      };
    }
    case 'refusal':
      return { type: 'text', text: (part as { refusal: string }).refusal };
    default:
      // input_text and output_text: text either way.
      return { type: 'text', text: (part as { text: string }).text };
  }
}

const textOf = (parts: ContentPart[]): TextPart[] => parts.filter((part): part is TextPart => part.type === 'text');

/** An assistant turn that gathers the function calls following it, as chat carries them. */
function assistantTurn(messages: ChatMessage[]): AssistantMessage {
  const last = messages.at(-1);
  if (last?.role === 'assistant') return last;
  const turn: AssistantMessage = { role: 'assistant', content: null };
  messages.push(turn);
  return turn;
}

/** What an earlier code run's tool message says: its container and what it printed (when the client kept its outputs). */
const codeRunSeen = (item: ResponsesCodeInterpreterCall) => ({
  ...(item.container_id !== undefined ? { container_id: item.container_id } : {}),
  status: item.status,
  ...(item.outputs ? { logs: item.outputs.flatMap((output) => (output.type === 'logs' ? [output.logs] : [])).join('') } : {}),
});

/**
 * The chat messages of a Responses input: `instructions` first as a system
 * message, a string input as one user message, and each item in order:
 * messages by role (input_image and input_file as chat's image and file
 * parts), consecutive `function_call` items as one assistant turn's
 * tool_calls (after the assistant's text, when it answered both), each
 * `function_call_output` as the tool message of its call_id, each
 * `code_interpreter_call` (the gateway's earlier code run) as an assistant
 * turn calling code_interpreter with its code and the tool message of what it
 * printed, as the model saw it then. Reasoning items are the model's own
 * earlier thoughts, which chat has no field for: they are left out.
 */
export function convertResponsesInput(input: ResponsesRequest['input'], instructions?: string | null): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (instructions) messages.push({ role: 'system', content: instructions });
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    return messages;
  }
  for (const item of input as ResponsesInputItem[]) {
    if (item.type === 'function_call') {
      const turn = assistantTurn(messages);
      // Pushed, not spread into a new list: a run of calls takes time linear in its length.
      turn.tool_calls ??= [];
      turn.tool_calls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
    } else if (item.type === 'function_call_output') {
      const output = typeof item.output === 'string' ? item.output : textOf(item.output.map(contentPart));
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: output });
    } else if (item.type === 'code_interpreter_call') {
      const call = {
        id: item.id,
        type: 'function' as const,
        function: { name: CODE_INTERPRETER, arguments: JSON.stringify({ code: item.code ?? '' }) },
      };
      messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      messages.push({ role: 'tool', tool_call_id: item.id, content: JSON.stringify(codeRunSeen(item)) });
    } else if (item.type === 'reasoning') {
    } else {
      const content = typeof item.content === 'string' ? item.content : item.content.map(contentPart);
      if (item.role === 'user') messages.push({ role: 'user', content });
      else if (item.role === 'assistant')
        messages.push({ role: 'assistant', content: typeof content === 'string' ? content : textOf(content) });
      else messages.push({ role: item.role, content: typeof content === 'string' ? content : textOf(content) });
    }
  }
  return messages;
}

/** Chat's response_format of a `text.format`: json_schema's fields move into chat's nested json_schema object. */
export function convertTextFormat(format: ResponsesTextFormat): ResponseFormat {
  if (format.type !== 'json_schema') return format;
  const { type, name, schema, description, strict } = format;
  return {
    type,
    json_schema: { name, schema, ...(description !== undefined ? { description } : {}), ...(strict !== undefined ? { strict } : {}) },
  };
}

const convertToolChoice = (choice: ResponsesToolChoice): ToolChoice =>
  typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };

const convertTool = (tool: NonNullable<ResponsesRequest['tools']>[number]): FunctionTool => ({
  type: 'function',
  function: {
    name: tool.name,
    ...(tool.description != null ? { description: tool.description } : {}),
    ...(tool.parameters != null ? { parameters: tool.parameters } : {}),
    ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
  },
});

/**
 * The chat request of a Responses request (the gateway's own fields, such as
 * models, provider and plugins, are the same in both and not touched here):
 * input and instructions as messages, flat function tools as chat's nested
 * ones, `text.format` as response_format, `max_output_tokens` as
 * max_completion_tokens, `reasoning` as it is (effort, summary).
 */
export function convertResponsesRequest(body: ResponsesRequest): ConvertedResponsesRequest {
  const converted: ConvertedResponsesRequest = { messages: convertResponsesInput(body.input, body.instructions) };
  if (body.tools?.length) converted.tools = body.tools.map(convertTool);
  if (body.tool_choice !== undefined) converted.tool_choice = convertToolChoice(body.tool_choice);
  if (body.parallel_tool_calls != null) converted.parallel_tool_calls = body.parallel_tool_calls;
  if (body.text?.format) converted.response_format = convertTextFormat(body.text.format);
  if (body.reasoning) {
    const { effort, ...rest } = body.reasoning;
    converted.reasoning = { ...rest, ...(effort != null ? { effort: effort as ReasoningEffort } : {}) };
  }
  if (body.max_output_tokens != null) converted.max_completion_tokens = body.max_output_tokens;
  if (body.temperature != null) converted.temperature = body.temperature;
  if (body.top_p != null) converted.top_p = body.top_p;
  if (body.top_logprobs != null) {
    converted.logprobs = true;
    converted.top_logprobs = body.top_logprobs;
  }
  if (body.metadata) converted.metadata = body.metadata;
  if (body.user !== undefined) converted.user = body.user;
  if (body.stream !== undefined) converted.stream = body.stream;
  if (body.prompt_cache_key != null) converted.prompt_cache_key = body.prompt_cache_key;
  return converted;
}
