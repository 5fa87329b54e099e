import { completeChatRun } from '../chat/complete-chat.js';
import type { ChatRun } from '../chat/run.js';
import type { ChatServices } from '../chat/run-services.js';
import type { MessagesResponse } from '../protocol/messages.js';
import { convertToMessagesResponse } from './convert-to-messages-response.js';
import { ownMessage } from './own-message.js';

/**
 * A non-streaming POST /messages: the chat run (attempts, fallback, billing,
 * the ledger row), answered with the upstream's own Message when it went
 * untranslated, else with the completion as a Message; either way with the
 * generation's id and the model that served, its usage with the cost
 * billed, and every field the reference's Message has. service_metadata when asked.
 */
export async function completeMessages(services: ChatServices, run: ChatRun, signal: AbortSignal): Promise<MessagesResponse> {
  const { completion, native } = await completeChatRun(services, run, signal);
  const identity = { id: run.id, model: completion.model };
  // An untranslated Message keeps the upstream's counts; the cost billed is the gateway's, as on a translated one.
  const message = ownMessage(
    native
      ? { ...native, ...identity, usage: { ...native.usage, cost: completion.usage?.cost } }
      : convertToMessagesResponse(completion, identity),
  );
  return completion.service_metadata !== undefined ? { ...message, service_metadata: completion.service_metadata } : message;
}
