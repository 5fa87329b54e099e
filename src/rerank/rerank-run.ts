import { startRun, type Run, type RunContext, type RunServices } from '../chat/chat-run.js';
import type { RerankAdapter } from '../providers/types.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { RerankRequest } from './types.js';

/** What the rerank flow needs beyond the request; built once in app.ts. */
export interface RerankServices extends RunServices {
  adapters: Readonly<Record<string, RerankAdapter>>;
}

export type RerankRun = Run<RerankRequest>;

/** Plans a rerank: the model's endpoints in catalog order, failed ones last. A chat model is a 400. */
export function startRerankRun(services: RerankServices, key: ApiKeyRow, request: RerankRequest, context: RunContext): RerankRun {
  return startRun(services, key, request, context, { task: 'rerank', requested: [request.model] });
}
