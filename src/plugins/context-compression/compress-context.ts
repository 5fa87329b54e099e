import { Errors } from '../../http/errors.js';
import type { ChatRequest } from '../../protocol/chat.js';
import type { PipelineEntry } from '../pipeline-entry.js';
import type { TokenCounter } from '../shared/token-counter.js';
import { middleOut } from './middle-out.js';

/**
 * The context-compression plugin (engine `middle-out`, the reference's only
 * one): the prompt must fit the smallest context among the planned
 * endpoints, less the completion it asks room for, so that every fallback
 * can take it. Endpoints of unknown context length do not count; with none
 * known, nothing is compressed and the entry says why. A prompt that cannot
 * be brought under the budget is a 400 with the numbers.
 */
export function compressContext(
  request: ChatRequest,
  contextLengths: readonly (number | undefined)[],
  tokens: TokenCounter,
): { request: ChatRequest; entry: PipelineEntry } {
  const known = contextLengths.filter((length): length is number => length !== undefined);
  const entry = (summary: string, data: Record<string, unknown>): PipelineEntry => ({
    type: 'context_compression',
    name: 'context-compression',
    summary,
    data: { engine: 'middle-out', ...data },
  });
  if (known.length === 0) return { request, entry: entry('skipped: no planned endpoint states its context length', { skipped: true }) };

  const contextLength = Math.min(...known);
  const reserved = request.max_completion_tokens ?? 0;
  const budget = Math.max(0, contextLength - reserved);
  const result = middleOut(request.messages, budget, tokens);
  const data = {
    context_length: contextLength,
    reserved_for_completion: reserved,
    budget,
    tokens_before: result.tokensBefore,
    tokens_after: result.tokensAfter,
    removed_messages: result.removed,
    truncated_messages: result.truncated,
  };
  if (!result.fits) throw Errors.promptTooLong(data, result.tokensAfter, budget);
  if (result.removed.length === 0 && result.truncated.length === 0) {
    return { request, entry: entry(`prompt fits: ${result.tokensBefore} of ${budget} tokens`, data) };
  }
  const changes = [
    ...(result.removed.length ? [`removed ${result.removed.length} message${result.removed.length === 1 ? '' : 's'}`] : []),
    ...(result.truncated.length ? [`shortened ${result.truncated.length}`] : []),
  ].join(', ');
  return {
    request: { ...request, messages: result.messages },
    entry: entry(`${changes}: ${result.tokensBefore} → ${result.tokensAfter} of ${budget} tokens`, data),
  };
}
