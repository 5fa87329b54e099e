import { applyOrganizationDefaults } from '../organization-settings/apply-organization-defaults.js';
import type { InnerCalls } from '../plugins/server-tools/server-tool.js';
import type { ChatCompletion, ChatRequest } from '../protocol/chat.js';
import { prepareReservedChat } from './reserve-chat-run.js';
import type { ChatRun } from './run.js';
import type { ChatServices } from './run-services.js';
import { startChatRun } from './start-run.js';

/** A non-streaming chat through the whole path (complete-chat.ts). */
export type CompleteChat = (services: ChatServices, run: ChatRun, signal: AbortSignal) => Promise<ChatCompletion>;

/**
 * Inner calls for a request in flight (fusion's panelists and analyst): each
 * a chat of its own through the same path as a client's — organization
 * defaults, planning with fallbacks, the pipeline (guardrails included),
 * its own server tools, its own reservation of what it can cost — and its
 * own ledger row, charged to the same key and linked to the request by
 * parent_generation_id. Its `user` is the request's, so upstreams see the
 * same end-user hash. `completeChat` is complete-chat.ts's, passed in: that
 * file's tool loop makes inner calls, so importing it here would be a cycle.
 */
export function innerCalls(services: ChatServices, parent: ChatRun, completeChat: CompleteChat): InnerCalls {
  return async (call, signal) => {
    const request: ChatRequest = {
      model: call.model,
      messages: call.messages,
      ...(parent.request.user !== undefined ? { user: parent.request.user } : {}),
      ...(call.serverTools?.length ? { server_tools: call.serverTools } : {}),
      ...(call.maxSteps !== undefined ? { stop_server_tools_when: [{ type: 'step_count_is', step_count: call.maxSteps }] } : {}),
      ...(call.maxCompletionTokens !== undefined ? { max_completion_tokens: call.maxCompletionTokens } : {}),
      ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
      ...(call.responseFormat ? { response_format: { type: call.responseFormat } } : {}),
    };
    const settings = await services.organizationSettings.get(parent.key.organization_id);
    const context = {
      requestId: parent.requestId,
      origin: parent.origin,
      appTitle: parent.appTitle ?? null,
      userAgent: parent.userAgent,
      wantsMetadata: false,
    };
    const started = await startChatRun(services, parent.key, applyOrganizationDefaults(request, settings), context);
    // Each inner call holds what it can cost, as a client's request does, until its own row settles it.
    const run = await prepareReservedChat(services, { ...started, parentGenerationId: parent.id }, signal);
    try {
      const completion = await completeChat(services, run, signal);
      return {
        generationId: run.id,
        model: completion.model,
        content: completion.choices[0]?.message.content ?? '',
        cost: completion.usage?.cost ?? 0,
      };
    } finally {
      void run.reservation?.release();
    }
  };
}
