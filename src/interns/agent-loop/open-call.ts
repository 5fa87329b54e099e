import type { ToolCall } from '../../protocol/chat.js';
import type { RecordedStep } from './steps.js';

/** A tool call of the model's latest turn that has no result yet, and how far it got. */
export interface OpenCall {
  call: ToolCall;
  /** A question or approval was recorded for it. */
  asked: boolean;
  /** Its approval was granted. */
  granted: boolean;
  /** A tool_call step was recorded: execution began. */
  started: boolean;
}

/** The first tool call of the last assistant step still waiting for its result (a tool result, or an answer that stands for one). */
export function nextOpenCall(steps: readonly RecordedStep[]): OpenCall | undefined {
  let index = -1;
  for (let i = steps.length - 1; i >= 0; i -= 1) {
    if (steps[i]?.kind === 'assistant') {
      index = i;
      break;
    }
  }
  if (index < 0) return undefined;
  const turn = steps[index];
  if (turn?.kind !== 'assistant') return undefined;
  const after = steps.slice(index + 1);
  for (const call of turn.content.message.tool_calls ?? []) {
    const about = after.filter((step) => 'id' in step.content && step.content.id === call.id);
    const closed = about.some((step) => step.kind === 'tool_result' || (step.kind === 'answer' && step.content.granted !== true));
    if (closed) continue;
    return {
      call,
      asked: about.some((step) => step.kind === 'question' || step.kind === 'approval'),
      granted: about.some((step) => step.kind === 'answer' && step.content.granted === true),
      started: about.some((step) => step.kind === 'tool_call'),
    };
  }
  return undefined;
}
