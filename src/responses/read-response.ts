import { AnswerText } from '../chat/estimate-tokens.js';
import type { GeneratedText } from '../chat/generation-content.js';
import type { FinishReason } from '../protocol/chat.js';
import type { ResponseObject, ResponseStreamEvent, ResponsesOutputItem } from '../protocol/responses.js';
import { randomSlice } from '../util/ids.js';

/** A fresh item id as the Responses API makes them (`msg_…`, `fc_…`, `rs_…`). */
export const newItemId = (prefix: string): string => `${prefix}_${randomSlice(16).toString('hex')}`;

/** The text of a Response's output, for the usage check: messages, reasoning, function calls, and the code the model wrote for code_interpreter. */
export function answerTextOfResponse(output: readonly ResponsesOutputItem[]): AnswerText {
  const answer = new AnswerText();
  for (const item of output) {
    if (item.type === 'message') for (const part of item.content) answer.add(part.type === 'output_text' ? part.text : part.refusal);
    else if (item.type === 'reasoning') for (const part of [...item.summary, ...(item.content ?? [])]) answer.add(part.text);
    else if (item.type === 'code_interpreter_call') {
      answer.addPiece();
      answer.add(item.code);
    } else {
      answer.addPiece();
      answer.add(item.name);
      answer.add(item.arguments);
    }
  }
  return answer;
}

/** What a Response's status means as a chat finish reason, for the ledger. */
export function responseFinishReason(response: Pick<ResponseObject, 'status' | 'incomplete_details' | 'output'>): FinishReason {
  if (response.status === 'incomplete') return response.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length';
  if (response.status === 'failed') return 'error';
  return response.output.some((item) => item.type === 'function_call') ? 'tool_calls' : 'stop';
}

/** The text an event adds to the answer, for the usage check of a stream. */
export function eventText(event: ResponseStreamEvent, answer: AnswerText): void {
  if (event.type === 'response.output_item.added' && (event.item as { type?: string } | undefined)?.type === 'function_call') {
    answer.addPiece();
    answer.add((event.item as { name?: string }).name);
  }
  if (typeof event.delta === 'string' && event.type.endsWith('.delta')) answer.add(event.delta);
}

/** What a Response answered, as the ledger's stored content keeps it: its messages' text and its reasoning. */
export function generatedTextOf(output: readonly ResponsesOutputItem[]): GeneratedText {
  const join = (texts: string[]) => (texts.length > 0 ? texts.join('') : null);
  return {
    completion: join(
      output.flatMap((item) =>
        item.type === 'message' ? item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : [],
      ),
    ),
    reasoning: join(
      output.flatMap((item) => (item.type === 'reasoning' ? [...item.summary, ...(item.content ?? [])].map((part) => part.text) : [])),
    ),
  };
}
