import { randomBytes } from 'node:crypto';
import { isRecord } from '../../util/is-record.js';
import { hasBearerToken } from '../chat-route.js';
import { bodyModel, embeddingsRoute } from '../embeddings/embeddings-route.js';
import { SimErrors } from '../openai-errors.js';
import { splitTokens } from '../tokens.js';
import { optionOdds } from './option-odds.js';

/** A question as the Decisions API takes it, read into its options in order (a noul's yes then no, a score's levels lowest first). */
interface SimQuestion {
  type: 'choice' | 'noul' | 'score';
  instructions: string;
  keys: string[];
  texts: string[];
}

interface SimDecisionsRequest {
  model: string;
  state: string;
  questions: Record<string, SimQuestion>;
}

const MAX_QUESTIONS = 100;
/** The API's answers carry probabilities to four decimals. */
const round = (value: number) => Math.round(value * 1e4) / 1e4;

type Read = { ok: true; request: SimDecisionsRequest } | { ok: false; error: ReturnType<typeof SimErrors.missingModel> };

function readQuestion(id: string, raw: unknown): SimQuestion | string {
  const param = `questions.${id}`;
  if (!isRecord(raw) || typeof raw.instructions !== 'string') return `${param}.instructions`;
  const { type, criteria, instructions } = raw;
  if (type === 'choice' && isRecord(criteria) && Object.keys(criteria).length >= 2)
    return {
      type,
      instructions,
      keys: Object.keys(criteria),
      texts: Object.entries(criteria).map(([k, v]) => (typeof v === 'string' ? v : k)),
    };
  if (type === 'noul' && (criteria === undefined || isRecord(criteria))) {
    const sides = (criteria ?? {}) as { true?: unknown; false?: unknown };
    const text = (side: unknown, fallback: string) => (typeof side === 'string' ? side : fallback);
    return { type, instructions, keys: ['true', 'false'], texts: [text(sides.true, 'yes'), text(sides.false, 'no')] };
  }
  if (type === 'score' && Array.isArray(criteria) && criteria.length >= 2 && criteria.every((c) => typeof c === 'string'))
    return { type, instructions, keys: criteria.map((_, i) => String(i)), texts: criteria as string[] };
  return `${param}.criteria`;
}

/** Reads a body as the Decisions API checks it: a model, a state, and 1 to 100 typed questions with their criteria. */
function readDecisionsRequest(body: unknown, model: string): Read {
  if (!model) return { ok: false, error: SimErrors.missingModel() };
  const fields = isRecord(body) ? body : {};
  const { state, questions } = fields;
  if (state === undefined) return { ok: false, error: SimErrors.missingParameter('state') };
  if (!isRecord(questions)) return { ok: false, error: SimErrors.missingParameter('questions') };
  const ids = Object.keys(questions);
  if (ids.length === 0 || ids.length > MAX_QUESTIONS)
    return { ok: false, error: SimErrors.arrayTooLong('questions', MAX_QUESTIONS, ids.length) };
  const read: Record<string, SimQuestion> = {};
  for (const id of ids) {
    const question = readQuestion(id, questions[id]);
    if (typeof question === 'string')
      return { ok: false, error: SimErrors.invalidType(question, 'a valid question field', 'something else') };
    read[id] = question;
  }
  return { ok: true, request: { model, state: typeof state === 'string' ? state : JSON.stringify(state), questions: read } };
}

/** One question's answer in the API's shape, from the odds of its options against the state and its instructions. */
function answer(state: string, question: SimQuestion): Record<string, unknown> {
  const odds = optionOdds(`${state}\n${question.instructions}`, question.texts);
  const best = odds.reduce((top, p, i) => (p > odds[top]! ? i : top), 0);
  const probabilities = Object.fromEntries(question.keys.map((key, i) => [key, round(odds[i]!)]));
  if (question.type === 'noul') return { type: 'noul', noul: round(odds[0]!) };
  if (question.type === 'choice') return { type: 'choice', choice: question.keys[best], probabilities, confidence: round(odds[best]!) };
  return {
    type: 'score',
    score: round(odds.reduce((sum, p, i) => sum + p * i, 0)),
    legend: Object.fromEntries(question.keys.map((key, i) => [key, question.texts[i]])),
    probabilities,
    confidence: round(odds[best]!),
  };
}

/**
 * `POST /v1/decisions`, the Decisions API (OpenRouter's alpha shape) of a
 * decision model: every question answered with probabilities from the
 * simulator's word-overlap judgement (option-odds.ts), `usage` as
 * `{input_tokens, output_tokens}` (the state's and questions' tokens read,
 * one token written per question); OpenAI's error bodies. Its checks, knobs
 * and delivery are the embeddings routes' (a JSON POST answered in one body).
 */
export const handleDecisions = embeddingsRoute<SimDecisionsRequest>(
  {
    hasKey: (req) => hasBearerToken(req.headers.authorization),
    missingKey: SimErrors.missingApiKey,
    invalidJson: SimErrors.unparseableJson,
    invalidKnob: SimErrors.invalidKnob,
    simulatedStatus: (status, model, retryAfterSeconds) => ({
      ...SimErrors.simulatedStatus(status, model),
      ...(retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}),
    }),
    read: readDecisionsRequest,
    answer: ({ model, state, questions }) => {
      const read = [state, ...Object.values(questions).flatMap((q) => [q.instructions, ...q.texts])].join('\n');
      return {
        id: `dec-${randomBytes(12).toString('hex')}`,
        object: 'decision',
        model,
        answers: Object.fromEntries(Object.entries(questions).map(([id, q]) => [id, answer(state, q)])),
        usage: { input_tokens: splitTokens(read).length, output_tokens: Object.keys(questions).length },
      };
    },
  },
  bodyModel,
);
