import type { Endpoint } from '../../catalog/types.js';
import type { ChatRequest } from '../../chat/types.js';
import type { Attempt } from '../../routing/plan-attempts.js';
import type { TokenCounter } from '../shared/token-counter.js';
import { activePlugin, type StageEntry } from '../stage-entry.js';
import { compressContext } from './compress-context.js';

/** The context-compression stage: middle-out against the planned endpoints' context lengths, when the plugin is on. */
export async function contextCompressionStage(
  request: ChatRequest,
  attempts: readonly Attempt<Endpoint>[],
  tokens: () => Promise<TokenCounter>,
): Promise<{ request: ChatRequest; entry?: StageEntry }> {
  if (!activePlugin(request.plugins, 'context-compression')) return { request };
  return compressContext(request, attempts.map((attempt) => attempt.endpoint.contextLength), await tokens());
}
