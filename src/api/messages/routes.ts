import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ChatServices } from '../../chat/run-services.js';
import { streamChat } from '../../chat/stream-chat.js';
import type { Authenticator } from '../../http/authenticate.js';
import { errorHandler, toGatewayError } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { SseWriter } from '../../http/sse-writer.js';
import { completeMessages } from '../../messages/complete-messages.js';
import { convertToMessagesError } from '../../messages/map-messages-error.js';
import { messagesStreamOutput } from '../../messages/messages-stream-output.js';
import { admitChat } from '../chat/admit-chat.js';
import { convertMessagesRequest } from './convert-messages-request.js';
import { MessagesErrorBody, MessagesResponseBody, MessagesRequestBody, MessagesRequestHeaders } from './schemas.js';

/**
 * POST /messages: Anthropic's Messages API on every chat model. The body
 * reads as a chat request (convert-messages-request.ts), which routes,
 * reserves, guards and records it as chat does; an endpoint that speaks
 * Anthropic's API is sent the client's own body, the others the chat
 * request, whose answer comes back as a Message or as Anthropic's events.
 * Every error, from authentication on, is in Anthropic's shape with the
 * status chat would answer.
 */
export function messagesRoutes(services: ChatServices & { auth: Authenticator; shutdown: Shutdown }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/messages',
      {
        onRequest: services.auth.requireKey,
        schema: { body: MessagesRequestBody, headers: MessagesRequestHeaders, response: { 200: MessagesResponseBody, '4XX': MessagesErrorBody, '5XX': MessagesErrorBody } },
        errorHandler: errorHandler(app.initialConfig.bodyLimit ?? 0, (error, request) => convertToMessagesError(error, request.id)),
      },
      // Held until its ledger row is written: a stop closes the database only after.
      async (request, reply) => services.shutdown.hold(async () => {
        const sent = convertMessagesRequest(request.body);
        const headers = request.headers;
        const { chat, run, signal } = await admitChat(services, request, reply, sent, (reads, presetApplied) =>
          // A preset's fields are in the chat request only: a body it changed goes translated.
          presetApplied
            ? undefined
            : {
                body: request.body,
                reads,
                ...(headers['anthropic-version'] ? { anthropicVersion: headers['anthropic-version'] } : {}),
                ...(headers['anthropic-beta'] ? { anthropicBeta: headers['anthropic-beta'] } : {}),
              },
        );
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
            (error) => {
              const gatewayError = toGatewayError(error, 0);
              reply.raw.writeHead(gatewayError.statusCode, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': request.id });
              reply.raw.end(JSON.stringify(convertToMessagesError(gatewayError, request.id)));
            },
            messagesStreamOutput(sse),
          );
        } finally {
          void run.reservation?.release();
        }
      }),
    );
  };
}
