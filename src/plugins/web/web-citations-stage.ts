import type { ResponseStage } from '../response-stage.js';
import { urlCitations } from './url-citations.js';

/**
 * The web plugin's post-response stage: the search results as url_citation
 * annotations on the answer (streams get theirs in a chunk of their own,
 * see stream-chat.ts). The web stage's entry already lists the results.
 */
export const webCitationsStage: ResponseStage = {
  name: 'web-citations',
  applies: (run) => run.citations !== undefined,
  run(run, completion) {
    const results = run.citations ?? [];
    return {
      entries: [],
      completion: {
        ...completion,
        choices: completion.choices.map((choice) => ({
          ...choice,
          message: {
            ...choice.message,
            annotations: [...(choice.message.annotations ?? []), ...urlCitations(choice.message.content ?? '', results)],
          },
        })),
      },
    };
  },
};
