import type { ChatMessage } from '../../protocol/chat.js';
import type { RecordedStep } from './steps.js';

/**
 * The conversation the model sees, rebuilt from the recorded steps alone (so
 * a resumed run sees exactly what the interrupted one did): inputs and
 * steering are user turns, each tool call gets its result, the answer to a
 * question or approval stands as that call's tool result.
 */
export function transcriptMessages(instructions: string | null, steps: readonly RecordedStep[]): ChatMessage[] {
  const messages: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
  for (const step of steps) {
    switch (step.kind) {
      case 'input':
      case 'steer':
        messages.push({ role: 'user', content: step.content.text });
        break;
      case 'assistant':
        messages.push(step.content.message);
        break;
      case 'tool_result':
        messages.push({ role: 'tool', tool_call_id: step.content.id, content: step.content.content });
        break;
      case 'answer':
        // A granted approval is followed by the tool's own result.
        if (step.content.granted !== true)
          messages.push({ role: 'tool', tool_call_id: step.content.id, content: answerText(step.content) });
        break;
      default:
        break;
    }
  }
  return messages;
}

const answerText = ({ answer, granted }: { answer: string; granted?: boolean }) =>
  granted === undefined ? answer : granted ? 'approved' : `not approved${answer ? `: ${answer}` : ''}`;
