import { questionOptions } from '../../protocol/decision-options.js';
import type { DecisionQuestion, DecisionsRequest, OptionReading, UpstreamDecisions } from '../../protocol/decisions.js';
import { isRecord } from '../../util/is-record.js';

const isProbability = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;

/** A question's answer as the protocol writes it, read as what the model said of each option; undefined when it is not one. */
function readAnswer(question: DecisionQuestion, answer: unknown): OptionReading | undefined {
  if (!isRecord(answer) || answer.type !== question.type) return undefined;
  if (question.type === 'noul')
    return isProbability(answer.noul) ? { kind: 'probabilities', probabilities: [answer.noul, 1 - answer.noul] } : undefined;
  const options = questionOptions(question);
  const { probabilities } = answer;
  if (isRecord(probabilities)) {
    const values = options.map((option) => probabilities[option.key] ?? 0);
    return values.every(isProbability) ? { kind: 'probabilities', probabilities: values } : undefined;
  }
  // Without probabilities, only the option picked is known: a choice's key, a score's level (its position, rounded).
  const index =
    question.type === 'choice'
      ? options.findIndex((option) => option.key === answer.choice)
      : typeof answer.score === 'number' && Number.isFinite(answer.score)
        ? Math.round(answer.score)
        : -1;
  return index >= 0 && index < options.length ? { kind: 'picked', index } : undefined;
}

/**
 * The Decisions API's answer body (`{id, model, answers, usage: {input_tokens,
 * output_tokens}}`) read against the questions sent; undefined when an asked
 * question has no answer of its type, so that a malformed answer moves the
 * plan on. Usage figures are passed as reported: the gateway checks them.
 */
export function convertDecisionsResponse(body: unknown, request: Pick<DecisionsRequest, 'questions'>): UpstreamDecisions | undefined {
  if (!isRecord(body) || !isRecord(body.answers)) return undefined;
  const readings: Record<string, OptionReading> = {};
  for (const [id, question] of Object.entries(request.questions)) {
    const reading = readAnswer(question, body.answers[id]);
    if (!reading) return undefined;
    readings[id] = reading;
  }
  const usage = isRecord(body.usage) ? body.usage : {};
  return {
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
    readings,
    usage: {
      ...(typeof usage.input_tokens === 'number' ? { input_tokens: usage.input_tokens } : {}),
      ...(typeof usage.output_tokens === 'number' ? { output_tokens: usage.output_tokens } : {}),
    },
  };
}
