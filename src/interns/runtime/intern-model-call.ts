import { LedgerWriter } from '../../accounting/ledger-writer.js';
import { recordGenerations } from '../../accounting/record-generation.js';
import { completeChat } from '../../chat/complete-chat.js';
import { prepareReservedChat } from '../../chat/reserve-chat-run.js';
import type { ChatServices } from '../../chat/run-services.js';
import { startChatRun } from '../../chat/start-run.js';
import { applyOrganizationDefaults } from '../../organization-settings/apply-organization-defaults.js';
import type { AssistantMessage, ChatMessage, ChatRequest, FunctionTool } from '../../protocol/chat.js';
import { findApiKeyByHash } from '../../store/repositories/api-keys.js';

/** A model's reply to a run, the generation that billed it, and what it cost. */
export interface ModelTurn {
  message: AssistantMessage;
  generationId: string;
  cost: number;
}

export interface InternModelCall {
  runId: string;
  /** The invoking key: the call is planned, guarded and billed as its own chat request. */
  apiKeyHash: string;
  model: string;
  messages: ChatMessage[];
  tools: readonly FunctionTool[];
  signal: AbortSignal;
}

/**
 * One model turn of a run through the gateway's own chat path (organization
 * defaults, routing with fallbacks, the pipeline, guardrails, spend reservation),
 * like fusion's inner calls: a ledger row per call charged to the invoking
 * key, carrying intern_run_id. The rows go through a writer of their own
 * that stamps the run on them, so the chat flow itself needs no intern field.
 */
export function internModelCaller(services: ChatServices) {
  return async (call: InternModelCall): Promise<ModelTurn> => {
    const key = await findApiKeyByHash(services.db, call.apiKeyHash);
    if (!key) throw new Error('the API key that started this run no longer exists');
    if (key.disabled) throw new Error('the API key that started this run is disabled');
    const ledger = new LedgerWriter(
      (rows, now) =>
        recordGenerations(
          services.db,
          rows.map((row) => ({ ...row, intern_run_id: call.runId })),
          now,
        ),
      services.clock,
    );
    const runServices: ChatServices = { ...services, ledger };
    const request: ChatRequest = {
      model: call.model,
      messages: call.messages,
      ...(call.tools.length > 0 ? { tools: [...call.tools] } : {}),
    };
    const settings = await services.organizationSettings.get(key.organization_id);
    const context = { requestId: `intern-run-${call.runId}`, origin: null, userAgent: 'model-gateway-intern', wantsMetadata: false };
    const started = await startChatRun(runServices, key, applyOrganizationDefaults(request, settings), context);
    // Each turn is a request of the key: it holds what it can cost against the key's limits before the upstream call, as the chat route does.
    const prepared = await prepareReservedChat(runServices, started, call.signal);
    try {
      const completion = await completeChat(runServices, prepared, call.signal);
      const message = completion.choices[0]?.message;
      return {
        message: {
          role: 'assistant',
          content: message?.content ?? null,
          ...(message?.tool_calls?.length ? { tool_calls: message.tool_calls } : {}),
        },
        generationId: prepared.id,
        cost: completion.usage?.cost ?? 0,
      };
    } finally {
      void prepared.reservation?.release();
    }
  };
}
