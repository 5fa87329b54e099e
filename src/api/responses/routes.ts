import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ChatServices } from '../../chat/run-services.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { writeStreamRefusal } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { SseWriter } from '../../http/sse-writer.js';
import type { ResponsesRequest } from '../../protocol/responses.js';
import { carriesCodeRuns } from '../../responses/code-interpreter-call.js';
import { completeResponses } from '../../responses/complete-responses.js';
import { streamResponses } from '../../responses/stream-responses.js';
import { admitChat } from '../chat/admit-chat.js';
import { ChatRequestHeaders } from '../chat/schemas.js';
import { checkContainerFiles, type NamedFile } from '../containers/check-container-files.js';
import { chatBodyOf, containerFileIds } from './chat-body.js';
import { ResponsesRequestBody } from './schemas.js';

/**
 * The gateway keeps no Responses or conversations: the fields that point at
 * stored state, or ask for a response to poll later, are refused by name.
 */
function checkStateless(body: ResponsesRequestBody): void {
  const stateless = 'the gateway keeps no conversation state; send the whole conversation in input';
  if (body.previous_response_id != null) throw Errors.invalidRequest(`previous_response_id is not supported: ${stateless}`);
  if (body.conversation != null) throw Errors.invalidRequest(`conversation is not supported: ${stateless}`);
  if (body.background === true)
    throw Errors.invalidRequest(
      'background is not supported: the gateway answers a response in the request, stream: true sends it as it is made',
    );
}

/** The files the request's code_interpreter tools name, with their fields. */
const namedFiles = (body: ResponsesRequestBody): NamedFile[] =>
  (body.tools ?? []).flatMap((tool, index) =>
    tool.type === 'code_interpreter'
      ? containerFileIds(tool).map((id, at) => ({ field: `tools[${index}].container.file_ids[${at}]`, id }))
      : [],
  );

/**
 * POST /responses, OpenAI's Responses API on every chat model. The body
 * becomes a chat request, which goes through chat's machinery (preset,
 * checks, organization defaults, routing, reservation, the plugins'
 * request stages); each attempt then speaks Responses natively when its
 * endpoint's protocol does (OpenAI's), else chat, translated back.
 */
export function responsesRoutes(services: ChatServices & { auth: Authenticator; shutdown: Shutdown }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/responses',
      { onRequest: services.auth.requireKey, schema: { body: ResponsesRequestBody, headers: ChatRequestHeaders } },
      async (request, reply) =>
        services.shutdown.hold(async () => {
          const body = request.body;
          checkStateless(body);
          await checkContainerFiles(services.db, callerKey(request).workspace_id, namedFiles(body));
          const { run, signal, presetApplied, planned } = await admitChat(services, request, reply, chatBodyOf(body), {
            fusionRoute: 'POST /chat/completions',
          });
          // The client's own body goes upstream natively only while it is all the run asks: what a preset or a plugin changed is in the chat request alone,
          // and the gateway's own server tools (code_interpreter) run in the chat loop, whose earlier runs only the gateway knows.
          const call = {
            run,
            body: body as ResponsesRequest,
            native:
              !presetApplied && run.request === planned && !run.request.server_tools?.length && !carriesCodeRuns(body as ResponsesRequest),
          };
          try {
            if (!body.stream) {
              return await completeResponses(services, call, signal).catch((error: unknown) => {
                throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
              });
            }
            reply.hijack();
            const sse = new SseWriter(reply.raw, { 'x-request-id': request.id });
            await streamResponses(services, call, sse, signal, (error) => writeStreamRefusal(reply, error));
          } finally {
            void run.reservation?.release();
          }
        }),
    );
  };
}
