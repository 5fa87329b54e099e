import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { startChatRun } from '../../chat/start-run.js';
import type { ChatServices } from '../../chat/run-services.js';
import { completeChat } from '../../chat/complete-chat.js';
import { FUSION_MODEL, startFusionRun } from '../../chat/fusion-run.js';
import { prepareReservedChat } from '../../chat/reserve-chat-run.js';
import { streamChat } from '../../chat/stream-chat.js';
import { callerKey, type Authenticator } from '../../http/authenticate.js';
import { envelope, ERROR_CODE_HEADER, toGatewayError } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { applyOrganizationDefaults } from '../../organization-settings/apply-organization-defaults.js';
import { routerModelOf } from '../../routing/routers/route-models.js';
import { SseWriter } from '../../http/sse-writer.js';
import { applyPreset } from '../presets/apply-preset.js';
import { clientGone, runContext } from '../request-context.js';
import { checkChatRequest } from './check-chat-request.js';
import { applyDefaultModel } from './default-model.js';
import { normalizeChatRequest } from './normalize-chat-request.js';
import { ChatRequestBody, ChatRequestHeaders } from './schemas.js';

export function chatRoutes(services: ChatServices & { auth: Authenticator; shutdown: Shutdown }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/chat/completions',
      { onRequest: services.auth.requireKey, schema: { body: ChatRequestBody, headers: ChatRequestHeaders } },
      // Held until its ledger row is written: a stop closes the database only after.
      async (request, reply) => services.shutdown.hold(async () => {
        const key = callerKey(request);
        // A preset's fields fill in before the checks, so the merged request obeys the same rules.
        const body = await applyPreset(services.presets, key.organization_id, request.body);
        checkChatRequest(body);
        const settings = await services.organizationSettings.get(key.organization_id);
        const normalized = applyOrganizationDefaults(normalizeChatRequest(body, request.headers['x-session-id']), settings);
        // Without a model, an enabled router plugin (the request's or the organization's) names its router model.
        const chat = applyDefaultModel(normalized, routerModelOf(normalized.plugins));
        const signal = clientGone(reply, services.shutdown.signal);
        // The client's messages are kept with the ledger row when the organization stores content.
        const context = { ...runContext(request), ...(settings.storeContent ? { storedInput: chat.messages } : {}) };
        // Admission: the run holds the most it can cost (reserve-chat-run.ts) until it settles, or is released here.
        const run =
          chat.model === FUSION_MODEL
            ? await startFusionRun(services, key, chat, context, signal)
            : await prepareReservedChat(services, await startChatRun(services, key, chat, context), signal);
        try {
          if (!chat.stream) {
            return await completeChat(services, run, signal).catch((error: unknown) => {
              throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
            });
          }

          reply.hijack();
          const sse = new SseWriter(reply.raw, { 'x-request-id': request.id });
          await streamChat(services, run, sse, signal, (error) => {
            const gatewayError = toGatewayError(error, 0);
            reply.raw.writeHead(gatewayError.statusCode, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': request.id, [ERROR_CODE_HEADER]: gatewayError.code });
            reply.raw.end(JSON.stringify(envelope(gatewayError)));
          });
        } finally {
          void run.reservation?.release();
        }
      }),
    );
  };
}
