import type { SseWriter } from '../http/sse-writer.js';
import type { ChatCompletionChunk, Usage } from '../protocol/chat.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import type { MessagesStreamEvent } from '../protocol/messages.js';

/** Who served a stream, as its chunks and error name it. */
export interface StreamIdentity {
  id: string;
  created: number;
  model: string;
  provider: string | undefined;
}

/** How a served stream ended: what it was billed, and what the client asked to be told of its routing. */
export interface StreamEnd {
  /** The usage billed, with its cost. */
  usage: Usage;
  /** Whether a relayed chunk already carried the usage (with its cost, and service_metadata when asked). */
  usageSent: boolean;
  /** service_metadata, when the client asked for it (X-Service-Metadata). */
  serviceMetadata?: unknown;
}

/**
 * What a streaming run writes to its client, in the client's protocol: the
 * chat-completions chunks (chatChunksOutput), or Anthropic's events for
 * POST /messages. The relay (stream-chat.ts) checks, bills and records; this only speaks.
 */
export interface StreamOutput {
  /**
   * One relayed piece: a canonical chunk, stamped with the run's id, model,
   * provider and (on the usage chunk) cost, and, from an untranslated
   * Messages stream, the upstream's own event it was read from (chunk
   * undefined for an event with no canonical reading).
   */
  send(chunk: ChatCompletionChunk | undefined, native: MessagesStreamEvent | undefined, identity: StreamIdentity): Promise<void>;
  /** A served stream's end, once its ledger row is written. */
  end(ending: StreamEnd, identity: StreamIdentity): Promise<void>;
  /** The failure of a stream that had begun, the last thing it sends. */
  fail(failure: GatewayError, identity: StreamIdentity): Promise<void>;
}

/**
 * The reference's canonical error type (ApiErrorType) of a status, which the
 * error of a chat stream's last chunk names in its metadata (`error_type`,
 * required there).
 */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'authentication',
  402: 'payment_required',
  403: 'permission_denied',
  404: 'not_found',
  408: 'timeout',
  412: 'precondition_failed',
  413: 'payload_too_large',
  422: 'unprocessable',
  429: 'rate_limit_exceeded',
  500: 'server',
  502: 'provider_unavailable',
  503: 'provider_unavailable',
  504: 'timeout',
  524: 'timeout',
  529: 'provider_overloaded',
};

export const errorTypeOf = (status: number) => ERROR_TYPES[status] ?? 'unmapped';

/** The chat-completions stream: `data: <chunk>` lines, a usage chunk at the end if none came, and `data: [DONE]`. */
export function chatChunksOutput(sse: Pick<SseWriter, 'data'>): StreamOutput {
  return {
    async send(chunk) {
      if (chunk) await sse.data(JSON.stringify(chunk));
    },
    async end({ usage, usageSent, serviceMetadata }, { id, created, model, provider }) {
      // The client gets usage (and service_metadata) on the final chunk even when the upstream sent none.
      if (!usageSent) {
        const last = { id, object: 'chat.completion.chunk', created, model, provider, choices: [], usage };
        await sse.data(JSON.stringify(serviceMetadata === undefined ? last : { ...last, service_metadata: serviceMetadata }));
      }
      await sse.data('[DONE]');
    },
    async fail(error, { id, created, model, provider }) {
      // The last chunk of a failed stream (spec 7): the error, and finish_reason "error".
      await sse.data(
        JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          ...(provider ? { provider } : {}),
          error: {
            code: error.statusCode,
            message: error.message,
            metadata: { error_type: errorTypeOf(error.statusCode), ...error.metadata },
          },
          choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        }),
      );
      await sse.data('[DONE]');
    },
  };
}
