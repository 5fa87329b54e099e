import type { DecisionQuestion } from './decisions.js';

/** One option a question offers: the key its answer names it by, and the text a model reads. */
export interface QuestionOption {
  key: string;
  text: string;
}

/** The most options one question offers: a chat model is asked for one letter, A to Z. */
export const MAX_OPTIONS = 26;

/**
 * A question's options in order: a choice's own (its id when it has no
 * description), a noul's yes then no, a score's levels lowest first, keyed
 * by position ("0", "1", …) as its legend.
 */
export function questionOptions(question: DecisionQuestion): QuestionOption[] {
  switch (question.type) {
    case 'choice':
      return Object.entries(question.criteria).map(([key, text]) => ({ key, text: text ?? key }));
    case 'noul':
      return [
        { key: 'true', text: question.criteria?.true ?? 'Yes' },
        { key: 'false', text: question.criteria?.false ?? 'No' },
      ];
    case 'score':
      return question.criteria.map((text, index) => ({ key: String(index), text }));
  }
}

/** The letter a chat model answers for the option at `index`. */
export const optionLabel = (index: number): string => String.fromCharCode(65 + index);
