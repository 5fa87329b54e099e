import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { unknownModel } from '../../catalog/closest-model.js';
import type { ChatServices } from '../../chat/run-services.js';
import { streamChat } from '../../chat/stream-chat.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { errorHandler, writeStreamRefusal } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { SseWriter } from '../../http/sse-writer.js';
import { completeMessages } from '../../messages/complete-messages.js';
import { countMessageTokens } from '../../messages/count-message-tokens.js';
import { convertToMessagesError } from '../../messages/map-messages-error.js';
import { messagesStreamOutput } from '../../messages/messages-stream-output.js';
import { admitChat } from '../chat/admit-chat.js';
import { normalizeChatRequest } from '../chat/normalize-chat-request.js';
import { applyPreset } from '../presets/apply-preset.js';
import { convertMessagesRequest } from './convert-messages-request.js';
import { CountTokensBody, MessagesErrorBody, MessagesRequestBody, MessagesRequestHeaders, MessagesResponseBody } from './schemas.js';

/**
 * POST /messages: Anthropic's Messages API on every chat model. The body
 * reads as a chat request (convert-messages-request.ts), which routes,
 * reserves, guards and records it as chat does; an endpoint that speaks
 * Anthropic's API is sent the client's own body, the others the chat
 * request, whose answer comes back as a Message or as Anthropic's events.
 * Every error, from authentication on, is in Anthropic's shape with the
 * status chat would answer. POST /messages/count_tokens counts a body's
 * input tokens.
 */
export function messagesRoutes(services: ChatServices & { auth: Authenticator; shutdown: Shutdown }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const anthropicErrors = errorHandler(app.initialConfig.bodyLimit ?? 0, (error, request) => convertToMessagesError(error, request.id));
    const responses = { '4XX': MessagesErrorBody, '5XX': MessagesErrorBody };

    // Anthropic's token count (Claude Code asks for it): the gateway's own count, no upstream call, nothing billed.
    app.post(
      '/messages/count_tokens',
      {
        onRequest: services.auth.requireKey,
        schema: {
          body: CountTokensBody,
          headers: MessagesRequestHeaders,
          response: { 200: Type.Object({ input_tokens: Type.Integer() }), ...responses },
        },
        errorHandler: anthropicErrors,
      },
      async (request) => {
        const body = await applyPreset(
          services.presets,
          callerKey(request).workspace_id,
          convertMessagesRequest({ max_tokens: 1, ...request.body }),
        );
        for (const model of [body.model, ...(body.models ?? [])])
          if (model !== undefined && !services.catalog.getModel(model)) throw unknownModel(services.catalog, model);
        return { input_tokens: await countMessageTokens(normalizeChatRequest(body)) };
      },
    );

    app.post(
      '/messages',
      {
        onRequest: services.auth.requireKey,
        schema: { body: MessagesRequestBody, headers: MessagesRequestHeaders, response: { 200: MessagesResponseBody, ...responses } },
        errorHandler: anthropicErrors,
      },
      // Held until its ledger row is written: a stop closes the database only after.
      async (request, reply) =>
        services.shutdown.hold(async () => {
          const sent = convertMessagesRequest(request.body);
          const headers = request.headers;
          const { chat, run, signal } = await admitChat(services, request, reply, sent, {
            native: (reads, presetApplied) =>
              // A preset's fields are in the chat request only: a body it changed goes translated.
              presetApplied
                ? undefined
                : {
                    body: request.body,
                    reads,
                    ...(headers['anthropic-version'] ? { anthropicVersion: headers['anthropic-version'] } : {}),
                    ...(headers['anthropic-beta'] ? { anthropicBeta: headers['anthropic-beta'] } : {}),
                  },
          });
          try {
            if (!chat.stream) {
              return await completeMessages(services, run, signal).catch((error: unknown) => {
                throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
              });
            }

            reply.hijack();
            const sse = new SseWriter(reply.raw, { 'x-request-id': request.id });
            await streamChat(
              services,
              run,
              sse,
              signal,
              (error) => writeStreamRefusal(reply, error, (gatewayError) => convertToMessagesError(gatewayError, request.id)),
              messagesStreamOutput(sse),
            );
          } finally {
            void run.reservation?.release();
          }
        }),
    );
  };
}
