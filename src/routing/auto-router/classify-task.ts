import type { ChatMessage } from '../../protocol/chat.js';
import type { TaskType } from '../../protocol/routing-vocabulary.js';

export interface TaskClassification {
  task: TaskType;
  /** The cues that decided it, for the routing explanation; none for `general`. */
  cues: string[];
}

type Cue = readonly [pattern: RegExp, weight: number, label: string];

/** A language named as a translation target ("into French", "in Spanish"). */
const LANGUAGES =
  'english|french|spanish|german|italian|portuguese|dutch|russian|chinese|mandarin|japanese|korean|arabic|hindi|turkish|polish|swedish|greek|hebrew|vietnamese|thai|indonesian|ukrainian|czech|danish|finnish|norwegian';

/**
 * Cues per task type, in the order ties are broken (earlier wins). Weights:
 * 3 for a cue that alone says what the task is, 2 for a strong hint, 1 for
 * a word that only leans that way.
 */
const CUES: readonly (readonly [Exclude<TaskType, 'general'>, readonly Cue[]])[] = [
  [
    'coding',
    [
      [/```/, 3, 'code block'],
      [/\b(?:def|fn|func|function|class|struct|impl|interface)\s+\w+\s*[({<:]/, 3, 'code definition'],
      [/(?:^|\n)\s*(?:import|from|#include|using|package)\s+[\w.<"/]/, 2, 'import line'],
      [/\bselect\s+[\w*,\s]+\s+from\s+\w+/, 2, 'SQL query'],
      [/\b(?:traceback|stack trace|segfault|nullpointerexception|typeerror|syntaxerror|compile error|compiler error)\b/, 2, 'error trace'],
      [
        /\b(?:python|javascript|typescript|java|rust|golang|kotlin|swift|c\+\+|c#|php|ruby|bash|sql|html|css|react|node\.js)\b/,
        1,
        'language name',
      ],
      [
        /\b(?:code|coding|bug|debug|refactor|regex|function|method|compile|unit tests?|api endpoint|script|algorithm)\b/,
        1,
        'programming word',
      ],
    ],
  ],
  [
    'math',
    [
      // Inline math needs an operator between the dollars, so "$5 and $10" is no formula.
      [/\\(?:frac|int|sum|sqrt|lim|prod|partial)(?![a-z])|\$[^$\n]*[\\^_=][^$\n]*\$/, 3, 'LaTeX'],
      [/\b(?:solve|integral|derivative|differentiate|integrate|prove|theorem|lemma|equation|polynomial|eigenvalues?)\b/, 2, 'math verb'],
      [/\d\s*[-+*/^×÷]\s*\d|[a-z]\s*\^\s*\d|\b\d+\s*=\s*\d/, 1, 'arithmetic'],
      [/\b(?:probability|calculate|compute|matrix|algebra|geometry|calculus|percent(?:age)?|fraction|modulo)\b/, 1, 'math word'],
    ],
  ],
  [
    'translation',
    [
      [/\btranslat(?:e|es|ed|ion|ing)\b/, 3, 'translate'],
      [new RegExp(`\\b(?:into|to|in) (?:${LANGUAGES})\\b`), 2, 'target language'],
      [new RegExp(`\\b(?:${LANGUAGES})\\b`), 1, 'language name'],
    ],
  ],
  [
    'creative_writing',
    [
      [
        /\b(?:write|compose|draft|create|tell)\b[^.?!\n]{0,40}\b(?:story|poem|haiku|sonnet|limerick|song|lyrics|novel|screenplay|script for a|fairy tale|fable)\b/,
        3,
        'creative piece',
      ],
      [/\b(?:story|poem|haiku|sonnet|lyrics|novel|fiction|fairy tale|short story)\b/, 2, 'creative form'],
      [/\b(?:character|plot|rhyme|fantasy|protagonist|villain|once upon a time|imaginative|creative)\b/, 1, 'creative word'],
    ],
  ],
];

/** A task wins with at least this score; below it the request is general chat. */
const MIN_SCORE = 2;

/** How much of the message is read: cues sit near the start, and the hot path stays cheap. */
const MAX_CHARS = 8_000;

/** The text of the latest user message (its first MAX_CHARS): what is being asked now, and all the classifier reads. */
export function latestUserText(messages: readonly ChatMessage[]): string {
  const message = messages.findLast((m) => m.role === 'user');
  if (!message) return '';
  if (typeof message.content === 'string') return message.content.slice(0, MAX_CHARS);
  let text = '';
  for (const part of message.content) {
    if (part.type === 'text') text += `${part.text}\n`;
    if (text.length >= MAX_CHARS) break;
  }
  return text.slice(0, MAX_CHARS);
}

/** A cue's id, `task/label`: labels repeat across tasks ("language name"). */
const cueId = (task: string, label: string) => `${task}/${label}`;

/** Each cue's task, weight and label by id. */
const CUE_BY_ID = new Map(
  CUES.flatMap(([task, cues]) => cues.map(([, weight, label]) => [cueId(task, label), { task, weight, label }] as const)),
);

/**
 * The cues a text shows, as ids in CUES' order: the features a task is
 * decided from, which say what kind of request it is and keep none of its
 * words (the task classifications store these, never the text).
 */
export function taskCues(text: string): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const [task, cues] of CUES) for (const [pattern, , label] of cues) if (pattern.test(lower)) found.push(cueId(task, label));
  return found;
}

/**
 * The task the cues decide (each cue counts once, by its weight): the best
 * task scoring at least MIN_SCORE wins, ties going to the earlier task in
 * CUES; otherwise the request is `general`. An id this version does not know
 * counts for nothing.
 */
export function decideTask(cueIds: readonly string[]): TaskClassification {
  const scores = new Map<TaskType, { score: number; cues: string[] }>();
  for (const id of new Set(cueIds)) {
    const cue = CUE_BY_ID.get(id);
    if (!cue) continue;
    const sum = scores.get(cue.task) ?? { score: 0, cues: [] };
    sum.score += cue.weight;
    sum.cues.push(cue.label);
    scores.set(cue.task, sum);
  }
  let best: TaskClassification = { task: 'general', cues: [] };
  let bestScore = MIN_SCORE - 1;
  for (const [task] of CUES) {
    const sum = scores.get(task);
    if (sum && sum.score > bestScore) {
      best = { task, cues: sum.cues };
      bestScore = sum.score;
    }
  }
  return best;
}

/** The task type of a chat request, decided locally and deterministically (no model call) from its latest user message's cues. */
export const classifyTask = (messages: readonly ChatMessage[]): TaskClassification => decideTask(taskCues(latestUserText(messages)));
