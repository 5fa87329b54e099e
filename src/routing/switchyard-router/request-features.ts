import { estimatePromptTokens } from '../../chat/estimate-tokens.js';
import type { ChatMessage, ChatRequest } from '../../protocol/chat.js';
import type { TaskType } from '../../protocol/routing-vocabulary.js';
import { classifyTask } from '../auto-router/classify-task.js';

/** What the switchyard rules look at in a request. */
export interface RequestFeatures {
  tools: boolean;
  images: boolean;
  reasoning: boolean;
  /** Estimated at four characters a token. */
  promptTokens: number;
  /** Tool results since the latest user message that report an error. */
  toolErrors: number;
  /** The classified task type; classified on first use only, as few rules ask. */
  task(): TaskType;
}

const ERROR_WORDS = /\b(?:error|exception|failed|failure|traceback)\b/i;

const textOf = (content: ChatMessage['content']) =>
  typeof content === 'string' ? content : (content ?? []).map((part) => ('text' in part ? part.text : '')).join('\n');

function countToolErrors(messages: readonly ChatMessage[]): number {
  let errors = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role !== 'user'; i--) {
    const message = messages[i]!;
    if (message.role === 'tool' && ERROR_WORDS.test(textOf(message.content))) errors++;
  }
  return errors;
}

export function requestFeatures(request: Pick<ChatRequest, 'messages' | 'tools' | 'reasoning'>): RequestFeatures {
  const { messages, reasoning } = request;
  let task: TaskType | undefined;
  return {
    tools: (request.tools?.length ?? 0) > 0,
    images: messages.some((m) => Array.isArray(m.content) && m.content.some((part) => part.type === 'image_url')),
    reasoning:
      (reasoning?.effort != null && reasoning.effort !== 'none') || reasoning?.enabled === true || (reasoning?.max_tokens ?? 0) > 0,
    promptTokens: estimatePromptTokens(messages),
    toolErrors: countToolErrors(messages),
    task: () => (task ??= classifyTask(messages).task),
  };
}
