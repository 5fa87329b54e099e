import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { completeChat } from '../../chat/complete-chat.js';
import type { ChatServices } from '../../chat/run-services.js';
import { streamChat } from '../../chat/stream-chat.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { writeStreamRefusal } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { SseWriter } from '../../http/sse-writer.js';
import { checkContainerFiles, type NamedFile } from '../containers/check-container-files.js';
import { admitChat } from './admit-chat.js';
import { ChatRequestBody, ChatRequestHeaders } from './schemas.js';

/** The files the request's code_interpreter entries name, with their fields. */
const namedFiles = (body: ChatRequestBody): NamedFile[] =>
  (body.tools ?? []).flatMap((tool, index) =>
    tool.type === 'service:code_interpreter'
      ? (tool.parameters?.file_ids ?? []).map((id, at) => ({ field: `tools[${index}].parameters.file_ids[${at}]`, id }))
      : [],
  );

export function chatRoutes(services: ChatServices & { auth: Authenticator; shutdown: Shutdown }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/chat/completions',
      { onRequest: services.auth.requireKey, schema: { body: ChatRequestBody, headers: ChatRequestHeaders } },
      // Held until its ledger row is written: a stop closes the database only after.
      async (request, reply) =>
        services.shutdown.hold(async () => {
          await checkContainerFiles(services.db, callerKey(request).workspace_id, namedFiles(request.body));
          const { chat, run, signal } = await admitChat(services, request, reply, request.body);
          try {
            if (!chat.stream) {
              return await completeChat(services, run, signal).catch((error: unknown) => {
                throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
              });
            }

            reply.hijack();
            const sse = new SseWriter(reply.raw, { 'x-request-id': request.id });
            await streamChat(services, run, sse, signal, (error) => writeStreamRefusal(reply, error));
          } finally {
            void run.reservation?.release();
          }
        }),
    );
  };
}
