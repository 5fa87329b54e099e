import { promptTokens } from '../accounting/reservation-prompt.js';
import { loadTokenCounter } from '../plugins/shared/token-counter.js';
import type { ChatRequest } from '../protocol/chat.js';

/**
 * The input tokens of a Messages request, as POST /messages/count_tokens
 * answers them: the gateway's own count of the request it would send (the
 * prompt count its reservations use), whatever model serves it. An
 * estimate, which every provider's tokenizer puts a little differently.
 */
export async function countMessageTokens(request: ChatRequest): Promise<number> {
  const counter = await loadTokenCounter();
  return promptTokens(request, counter.count);
}
