import type { AdapterContext, EmbeddingsAdapter } from '../../protocol/adapters.js';
import type { EmbeddingsRequest, UpstreamEmbeddings } from '../../protocol/embeddings.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { readUpstreamAnswer } from './read-upstream-body.js';
import { sendUpstreamRequest } from './send-upstream-request.js';
import type { ProviderErrorParser } from './upstream-status-error.js';

/** One provider's embeddings protocol: where it is called, the body it takes, how its answer and errors read. */
export interface EmbeddingsProtocol {
  kind: string;
  acceptsTokens: boolean;
  /** The most input items one call takes (Cohere's 96, Gemini's 100); a larger request is sent in consecutive calls. */
  maxBatch: number;
  /** The path below the target's base URL. */
  path(target: UpstreamTarget): string;
  /** The provider's own headers (credentials); the target's configured headers override them. */
  headers(target: UpstreamTarget): Record<string, string>;
  /** The body for one batch: `request.input` holds only that batch's items. */
  toRequestBody(request: EmbeddingsRequest, target: UpstreamTarget, endUserId: string | undefined): unknown;
  /** The canonical answer, or undefined when the body is not this protocol's answer. */
  fromResponseBody(body: unknown): UpstreamEmbeddings | undefined;
  parseProviderError: ProviderErrorParser;
}

/** The request with only the items from `start` to `end` of its input. */
function batchOf(request: EmbeddingsRequest, start: number, end: number): EmbeddingsRequest {
  const { input } = request;
  return {
    ...request,
    input:
      input.kind === 'text'
        ? { kind: 'text', texts: input.texts.slice(start, end) }
        : { kind: 'tokens', tokens: input.tokens.slice(start, end) },
  };
}

const inputLength = (request: EmbeddingsRequest) =>
  request.input.kind === 'text' ? request.input.texts.length : request.input.tokens.length;

/**
 * An adapter for an embeddings API that takes one JSON POST and answers in
 * one JSON body. A request of more items than one call takes is sent in
 * batches, one after the other, and answered as one: the vectors in input
 * order, the usage summed (none when a batch reported none). A batch answered
 * with another number of vectors than it sent is malformed.
 */
export function httpEmbeddingsAdapter(protocol: EmbeddingsProtocol): EmbeddingsAdapter {
  async function embedBatch(request: EmbeddingsRequest, target: UpstreamTarget, context: AdapterContext): Promise<UpstreamEmbeddings> {
    const response = await sendUpstreamRequest({
      url: `${target.baseUrl.replace(/\/+$/, '')}/${protocol.path(target)}`,
      headers: { accept: 'application/json', ...protocol.headers(target), ...target.headers },
      body: protocol.toRequestBody(request, target, context.endUserId),
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: protocol.parseProviderError,
    });
    const answer = await readUpstreamAnswer(response, protocol.fromResponseBody, 'embeddings');
    const sent = inputLength(request);
    if (answer.vectors.length !== sent)
      throw new UpstreamError('malformed', `upstream answered ${answer.vectors.length} embeddings for ${sent} inputs`, {
        status: response.statusCode,
      });
    return answer;
  }

  return {
    kind: protocol.kind,
    acceptsTokens: protocol.acceptsTokens,
    async embed(request, target, context) {
      const total = inputLength(request);
      if (total <= protocol.maxBatch) return embedBatch(request, target, context);
      const vectors: number[][] = [];
      let tokens: number | undefined = 0;
      let id: string | undefined;
      for (let start = 0; start < total; start += protocol.maxBatch) {
        const answer = await embedBatch(batchOf(request, start, start + protocol.maxBatch), target, context);
        vectors.push(...answer.vectors);
        id ??= answer.id;
        tokens = tokens !== undefined && answer.usage.prompt_tokens !== undefined ? tokens + answer.usage.prompt_tokens : undefined;
      }
      return { ...(id !== undefined ? { id } : {}), vectors, usage: tokens !== undefined ? { prompt_tokens: tokens } : {} };
    },
  };
}

/** A vector as the providers send it: a non-empty array of finite numbers; undefined otherwise. */
export function readVector(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((x) => typeof x === 'number' && Number.isFinite(x)) ? (value as number[]) : undefined;
}

/** Maps the reference's `input_type` words to a provider's own; any other value is the provider's own word, sent as given. */
export const inputTypeFor = (words: Readonly<Record<string, string>>, inputType: string | undefined): string | undefined =>
  inputType === undefined ? undefined : (words[inputType] ?? inputType);
