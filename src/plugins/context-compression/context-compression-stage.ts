import type { ChatRequest } from '../../protocol/chat.js';
import type { RequestStage } from '../request-stage.js';
import type { TokenCounter } from '../shared/token-counter.js';
import { compressContext } from './compress-context.js';

/** The context-compression stage: middle-out against the planned endpoints' context lengths, when the plugin is on. */
export function contextCompressionStage(tokens: () => Promise<TokenCounter>): RequestStage<ChatRequest> {
  return {
    name: 'context-compression',
    applies: ({ plugins }) => plugins.has('context-compression'),
    async run({ run }) {
      const { request, entry } = compressContext(
        run.request,
        run.attempts.map((attempt) => attempt.endpoint.contextLength),
        await tokens(),
      );
      return { entries: [entry], run: { ...run, request } };
    },
  };
}
