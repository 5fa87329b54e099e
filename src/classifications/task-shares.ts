import type { TaskType } from '../protocol/routing-vocabulary.js';
import type { TaskModelSums } from '../store/repositories/task-classifications.js';

/** The reference's macro-categories this gateway's tasks fall in. */
const MACROS = { code: 'Code', general: 'General' } as const;
type Macro = keyof typeof MACROS;

/** Each of the auto-router's tasks as the reference's classification: a `macro:name` tag, its display name and macro-category. */
export const TASK_TAGS: Record<TaskType, { tag: string; display_name: string; macro: Macro }> = {
  coding: { tag: 'code:coding', display_name: 'Coding', macro: 'code' },
  math: { tag: 'general:math', display_name: 'Math', macro: 'general' },
  translation: { tag: 'general:translation', display_name: 'Translation', macro: 'general' },
  creative_writing: { tag: 'general:creative_writing', display_name: 'Creative Writing', macro: 'general' },
  general: { tag: 'general:chat', display_name: 'General Chat', macro: 'general' },
};

/** The most models listed under a classification. */
export const MODELS_PER_TAG = 10;

const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

interface Sums {
  requests: number;
  tokens: number;
}
const add = (sums: Sums, row: Sums) => {
  sums.requests += row.requests;
  sums.tokens += row.tokens;
};

/**
 * The reference's classifications and macro-categories from the sampled
 * counts: each task's share of the requests and tokens, its share within its
 * macro-category, and its top models by requests (ties by id) with their
 * shares of the task. Classifications by usage_share, highest first (ties by
 * tag); macro-categories the same way. A task no longer known is left out.
 */
export function taskShares(rows: readonly TaskModelSums[]) {
  const total: Sums = { requests: 0, tokens: 0 };
  const tasks = new Map<TaskType, Sums & { models: TaskModelSums[] }>();
  const macros = new Map<Macro, Sums>();
  for (const row of rows) {
    const known = TASK_TAGS[row.task as TaskType];
    if (!known) continue;
    add(total, row);
    const task = tasks.get(row.task as TaskType) ?? { requests: 0, tokens: 0, models: [] };
    add(task, row);
    task.models.push(row);
    tasks.set(row.task as TaskType, task);
    const macro = macros.get(known.macro) ?? { requests: 0, tokens: 0 };
    add(macro, row);
    macros.set(known.macro, macro);
  }
  const byShare = (a: { usage_share: number; key: string }, b: { usage_share: number; key: string }) =>
    b.usage_share - a.usage_share || (a.key < b.key ? -1 : 1);
  const classifications = [...tasks].map(([task, sums]) => {
    const { tag, display_name, macro } = TASK_TAGS[task];
    const inMacro = macros.get(macro)!;
    return {
      key: tag,
      tag,
      display_name,
      macro_category: macro,
      usage_share: share(sums.requests, total.requests),
      token_share: share(sums.tokens, total.tokens),
      category_usage_share: share(sums.requests, inMacro.requests),
      category_token_share: share(sums.tokens, inMacro.tokens),
      models: [...sums.models]
        .sort((a, b) => b.requests - a.requests || (a.model < b.model ? -1 : 1))
        .slice(0, MODELS_PER_TAG)
        .map((model) => ({
          id: model.model,
          tag_usage_share: share(model.requests, sums.requests),
          tag_token_share: share(model.tokens, sums.tokens),
        })),
    };
  });
  const macroCategories = [...macros].map(([key, sums]) => ({
    key,
    label: MACROS[key],
    usage_share: share(sums.requests, total.requests),
    token_share: share(sums.tokens, total.tokens),
  }));
  return {
    classifications: classifications.sort(byShare).map(({ key: _, ...item }) => item),
    macro_categories: macroCategories.sort(byShare),
  };
}
