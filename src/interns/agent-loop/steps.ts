import type { AssistantMessage } from '../../protocol/chat.js';

/** The kinds of intern_run_steps rows, in the order a run writes them. */
export type StepKind = 'input' | 'steer' | 'assistant' | 'tool_call' | 'tool_result' | 'question' | 'answer' | 'approval' | 'end';

/** Why a run ended (intern_runs.end_reason). 'cancelled': its caller left the stream, or left its question unanswered. */
export type EndReason = 'finished' | 'deadline' | 'failed' | 'stopped' | 'step_limit' | 'interrupted' | 'cancelled';

/** What each kind of step holds (intern_run_steps.content, JSON). Tool arguments are kept as the model wrote them: secrets unsubstituted. */
export interface StepContents {
  input: { text: string };
  steer: { text: string };
  assistant: { message: AssistantMessage };
  tool_call: { id: string; name: string; arguments: string };
  tool_result: { id: string; name: string; content: string; error?: boolean };
  question: { id: string; question: string };
  approval: { id: string; name: string; arguments: string };
  answer: { id: string; answer: string; granted?: boolean; by: 'user' | 'fallback' | 'self-drive' };
  end: { reason: EndReason; error?: string };
}

export type StepOf<K extends StepKind> = { seq: number; kind: K; content: StepContents[K] };
export type RecordedStep = { [K in StepKind]: StepOf<K> }[StepKind];

export type NewStep = { [K in StepKind]: { kind: K; content: StepContents[K] } }[StepKind];
