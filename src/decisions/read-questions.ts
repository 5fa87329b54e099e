import { Errors } from '../http/errors.js';
import { MAX_OPTIONS } from '../protocol/decision-options.js';
import type { DecisionQuestion } from '../protocol/decisions.js';
import { isRecord } from '../util/is-record.js';

/** The most questions one request asks: each is a call on a chat model, and all run at once. */
export const MAX_QUESTIONS = 100;

const QUESTION_TYPES = ['choice', 'noul', 'score'] as const;

/** A text field as a model reads it: a string as it is, JSON (an object or array, as the reference allows) as its text. */
const asText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'object' && value !== null ? JSON.stringify(value) : undefined;

/** One question, checked; the error names it and its field. */
function readQuestion(id: string, raw: unknown): DecisionQuestion {
  const field = (name: string) => `questions.${id}${name ? `.${name}` : ''}`;
  const refuse = (name: string, rule: string) => Errors.invalidRequest(`${field(name)} ${rule}`);
  if (!isRecord(raw)) throw refuse('', 'must be an object');
  const { type, criteria } = raw;
  const instructions = asText(raw.instructions);
  if (!QUESTION_TYPES.includes(type as (typeof QUESTION_TYPES)[number]))
    throw refuse('type', `must be one of ${QUESTION_TYPES.join(', ')}, not ${JSON.stringify(type ?? null)}`);
  if (typeof instructions !== 'string' || instructions.trim() === '')
    throw refuse('instructions', 'must be a non-empty string, object or array');
  const count = (n: number) => n >= 2 && n <= MAX_OPTIONS;
  switch (type) {
    case 'choice':
      if (!isRecord(criteria) || !count(Object.keys(criteria).length))
        throw refuse('criteria', `must map 2 to ${MAX_OPTIONS} options to their descriptions`);
      return {
        type,
        instructions,
        criteria: Object.fromEntries(
          Object.entries(criteria).map(([option, description]) => {
            const text = description === null ? null : asText(description);
            if (text === undefined) throw refuse(`criteria.${option}`, 'must be a string, object, array or null');
            return [option, text];
          }),
        ),
      };
    case 'noul': {
      if (criteria === undefined || criteria === null) return { type, instructions };
      if (!isRecord(criteria)) throw refuse('criteria', 'must be an object with optional true and false descriptions');
      const sides: { true?: string; false?: string } = {};
      for (const [side, description] of Object.entries(criteria)) {
        if (side !== 'true' && side !== 'false') throw refuse(`criteria.${side}`, 'is not a side of a noul: only true and false are');
        const text = asText(description);
        if (text === undefined) throw refuse(`criteria.${side}`, 'must be a string, object or array');
        sides[side] = text;
      }
      return { type, instructions, criteria: sides };
    }
    default:
      if (!Array.isArray(criteria) || !count(criteria.length))
        throw refuse('criteria', `must list 2 to ${MAX_OPTIONS} levels, lowest first`);
      return {
        type: 'score',
        instructions,
        criteria: criteria.map((level: unknown, index) => {
          const text = asText(level);
          if (text === undefined) throw refuse(`criteria[${index}]`, 'must be a string, object or array');
          return text;
        }),
      };
  }
}

/** A request's questions, checked: 1 to MAX_QUESTIONS of them, each of a known type with its fields' rules. */
export function readQuestions(raw: Record<string, unknown>): Record<string, DecisionQuestion> {
  const ids = Object.keys(raw);
  if (ids.length === 0 || ids.length > MAX_QUESTIONS)
    throw Errors.invalidRequest(`questions must hold 1 to ${MAX_QUESTIONS} questions, not ${ids.length}`);
  return Object.fromEntries(ids.map((id) => [id, readQuestion(id, raw[id])]));
}
