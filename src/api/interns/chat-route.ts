import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { SseWriter } from '../../http/sse-writer.js';
import { isGatewayError } from '../../protocol/gateway-error.js';
import { openRunOfSession, runUsage } from '../../store/repositories/intern-sessions.js';
import { keyReach } from '../../workspaces/management-reach.js';
import { acceptWithin } from './accept-within.js';
import { type ChatUsage, type ChunkContext, chunk, eventChunks, finalChunk, messageText, streamError } from './chat-chunks.js';
import { answerText, interactionId, parsePending, pendingOf } from './interaction-answer.js';
import { type InternServices, requireRuntime } from './intern-services.js';
import { admitTurn, type InternLookup, lookupIntern, newSession, ownedSession } from './invoke-route.js';
import { INTERN_BODY_LIMIT, InternChatBody, InternParams } from './schemas.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** The SDK: the stream writes `: keepalive` whenever nothing else has been written for 30 seconds. */
const KEEPALIVE_MS = 30_000;

/**
 * POST /interns/{internId}/chat/completions (the SDK's interns.chat): the last
 * user message starts a run and its steps stream back as chunks carrying the
 * session_id; on a session whose run is going it is delivered into it (202
 * steered). A tool message answers the question or approval a paused run
 * (manual mode) asked as openrouter.provide_input, and the run's steps from
 * there stream back; so does a user message on such a session, read as a
 * typed answer. Every stream closes with a chunk without choices carrying the
 * run's usage (null while the run waits for input), then [DONE].
 */
export function addInternChatRoute(app: App, services: InternServices, internOf: InternLookup): void {
  app.post(
    '/interns/:internId/chat/completions',
    { bodyLimit: INTERN_BODY_LIMIT, schema: { params: InternParams, body: InternChatBody } },
    async (request, reply) => {
      const key = callerKey(request);
      const body = request.body;
      if (body.stream !== true) throw Errors.internBadRequest('stream must be true: intern chat answers as server-sent events');
      const last = body.messages.at(-1)!;
      if (last.role !== 'user' && last.role !== 'tool')
        throw Errors.internBadRequest(
          `messages: the last message must be a user message (a run's input) or a tool message (an answer), not ${last.role}`,
        );
      const toolCallId = last.role === 'tool' ? last.tool_call_id : undefined;
      if (last.role === 'tool' && toolCallId === undefined)
        throw Errors.internBadRequest('messages: a tool message must carry the tool_call_id of the input it answers');
      if (last.role === 'tool' && body.session_id === undefined)
        throw Errors.internBadRequest('session_id is required when the last message is a tool message');
      const input = messageText(last.content);
      if (input.length === 0) throw Errors.internBadRequest('messages: the last message must have text content');
      if (input.length > 32_000) throw Errors.internBadRequest('messages: the last message must be at most 32000 characters long');
      const approvalMode = body.approval_mode ?? 'self-drive';

      const plan = await acceptWithin(
        services.acceptTimeoutMs,
        async (signal) => {
          const intern = await lookupIntern(internOf, keyReach(key), request.params.internId);
          const runtime = requireRuntime(services);
          const given = body.session_id === undefined ? undefined : await ownedSession(services, intern, key, body.session_id, 'chat');
          const open = given === undefined ? undefined : await openRunOfSession(services.db, given);
          const pending = open?.status === 'awaiting_input' ? parsePending(open.pending) : undefined;
          if (toolCallId !== undefined && !pending) throw Errors.interactionNotPending();
          if (toolCallId !== undefined && toolCallId !== interactionId(pending!)) throw Errors.interactionUnknown(toolCallId);
          if (open && pending) {
            // The answer to the paused run: stream its steps from the one after the pause.
            await runtime.answer(open.id, answerText(pending, input));
            return {
              kind: 'stream' as const,
              sessionId: given!,
              runId: open.id,
              after: open.steps,
              answered: pending.id,
              model: intern.model,
            };
          }
          await admitTurn(services, intern, (seconds) => void reply.header('retry-after', String(seconds)));
          const sessionId = given ?? (await newSession(services, intern, key, 'chat'));
          const result = await runtime.submit({
            internId: intern.id,
            sessionId,
            input,
            approvalMode,
            apiKeyHash: key.hash,
            organizationId: key.organization_id,
            workspaceId: intern.workspace_id,
            signal,
          });
          if (result.status === 'steered') return { kind: 'steered' as const, sessionId };
          return { kind: 'stream' as const, sessionId, runId: result.runId, after: 0, answered: undefined, model: intern.model };
        },
        () => Errors.internAcceptTimeout(Math.round(services.acceptTimeoutMs / 1000)),
      );
      if (plan.kind === 'steered') return reply.code(202).send({ session_id: plan.sessionId, status: 'steered' });

      const ctx: ChunkContext = {
        id: `chatcmpl-${randomBytes(12).toString('hex')}`,
        created: Math.floor(services.clock().getTime() / 1000),
        model: plan.model ?? body.model ?? 'intern',
        sessionId: plan.sessionId,
      };
      // The SDK: disconnecting while the response still streams cancels the run; closing after the
      // [DONE] (a paused run's tool_calls, or the end) leaves it as it is. The response's 'close' is
      // the connection's: the request's has fired once its body was read.
      const runtime = requireRuntime(services);
      const gone = new AbortController();
      let delivered = false;
      reply.raw.on('close', () => {
        if (delivered) return;
        gone.abort();
        runtime
          .cancel(plan.runId, 'the client disconnected while the response was streaming')
          .catch((error: unknown) => request.log.error({ err: error }, 'intern run cancel failed'));
      });
      reply.hijack();
      const sse = new SseWriter(reply.raw, { 'x-request-id': request.id });
      sse.keepAlive(KEEPALIVE_MS);
      // Chunks the gateway emits itself (a failed stream, and the usage after it) name no model of the intern's.
      const own: ChunkContext = { ...ctx, model: 'openrouter/intern' };
      let usage: ChatUsage | null = null;
      try {
        await sse.data(JSON.stringify(chunk(ctx, { role: 'assistant' })));
        for await (const event of runtime.events(plan.runId, gone.signal)) {
          if (event.type === 'step' && event.seq <= plan.after) continue;
          // Until the run records the answer it still shows the question it was asked: not a new one.
          if (event.type === 'pending' && plan.answered !== undefined && pendingOf(event.content)?.id === plan.answered) continue;
          for (const out of eventChunks(ctx, event)) await sse.data(JSON.stringify(out));
          // A paused run waits for the caller's next request on the session.
          if (event.type === 'pending') break;
          if (event.type === 'end') usage = await runUsage(services.db, plan.runId);
        }
      } catch (error) {
        const failure = isGatewayError(error) ? error : Errors.internStreamSevered("the run's events could not be read");
        request.log.error({ err: error, code: failure.code }, 'intern chat stream failed');
        await sse.data(JSON.stringify(chunk(own, {}, 'error', { error: streamError(failure) })));
      }
      await sse.data(JSON.stringify(finalChunk(usage ? ctx : own, usage)));
      await sse.data('[DONE]');
      delivered = !sse.closed;
      sse.end();
      return reply;
    },
  );
}
