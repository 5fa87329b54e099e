import type { ChatRequest } from '../protocol/chat.js';
import { optionLabel, questionOptions } from '../protocol/decision-options.js';
import type { DecisionQuestion, DecisionState } from '../protocol/decisions.js';

/** OpenAI's most alternatives per token: the question's letters are among them when the model weighs them at all. */
export const TOP_LOGPROBS = 20;

const SYSTEM =
  'You answer one multiple-choice question about the state you are given. Reply with the letter of the one option that fits best, and nothing else.';

/** The state as the model reads it: text as it is, JSON as JSON. */
export const stateText = (state: DecisionState): string => (typeof state === 'string' ? state : JSON.stringify(state));

/**
 * A question put to a chat model as a constrained one-token choice: the
 * options lettered A, B, C…, one completion token, no sampling, and the
 * top alternatives of that token (logprobs) so that the odds of every
 * letter can be read, where the endpoint returns them.
 */
export function questionPrompt(model: string, stateAsText: string, question: DecisionQuestion): ChatRequest {
  const options = questionOptions(question);
  const letters = options.map((_, i) => optionLabel(i));
  const lines = options.map((option, i) => `${letters[i]}. ${option.text}`);
  const ask = `Answer with one letter: ${letters.slice(0, -1).join(', ')} or ${letters.at(-1)}.`;
  return {
    model,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: `State:\n${stateAsText}\n\nQuestion: ${question.instructions}\n\n${lines.join('\n')}\n\n${ask}` },
    ],
    max_tokens: 1,
    temperature: 0,
    logprobs: true,
    top_logprobs: TOP_LOGPROBS,
  };
}
