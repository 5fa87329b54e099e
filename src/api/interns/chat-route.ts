import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { randomBytes } from 'node:crypto';
import { callerKey } from '../../http/authenticate.js';
import { Errors, isGatewayError } from '../../http/errors.js';
import { SseWriter } from '../../http/sse-writer.js';
import { openRunOfSession } from '../../store/repositories/intern-sessions.js';
import { acceptWithin } from './accept-within.js';
import { chunk, eventChunks, streamError, type ChunkContext } from './chat-chunks.js';
import { requireRuntime, type InternServices } from './intern-services.js';
import { admitTurn, lookupIntern, newSession, ownedSession, type InternLookup } from './invoke-route.js';
import { INTERN_BODY_LIMIT, InternChatBody, InternParams } from './schemas.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** The id of a run's pending question or approval (intern_runs.pending JSON). */
function pendingId(pending: string | null): string | undefined {
  try {
    const id: unknown = pending ? (JSON.parse(pending) as { id?: unknown }).id : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text: string }) => part.text).join('');
  return '';
}

/**
 * POST /interns/{internId}/chat/completions (the SDK's interns.chat): the last
 * message starts a run and its steps stream back as chunks carrying the
 * session_id; on a session whose run is going it is delivered into it (202
 * steered); on a run paused for a question or approval (manual mode) it is
 * the answer, and the run's steps from there stream back.
 */
export function addInternChatRoute(app: App, services: InternServices, internOf: InternLookup): void {
  app.post(
    '/interns/:internId/chat/completions',
    { bodyLimit: INTERN_BODY_LIMIT, schema: { params: InternParams, body: InternChatBody } },
    async (request, reply) => {
      const key = callerKey(request);
      const body = request.body;
      if (body.stream === false) throw Errors.internBadRequest('stream must be true: intern chat answers as server-sent events');
      const last = body.messages.at(-1)!;
      const input = messageText(last.content);
      if (input.length === 0) throw Errors.internBadRequest('messages: the last message must have text content');
      if (input.length > 32_000) throw Errors.internBadRequest('messages: the last message must be at most 32000 characters long');
      const approvalMode = body.approval_mode ?? 'self-drive';

      const plan = await acceptWithin(
        services.acceptTimeoutMs,
        async (signal) => {
          const intern = await lookupIntern(internOf, key.organization_id, request.params.internId);
          const runtime = requireRuntime(services);
          const given = body.session_id === undefined ? undefined : await ownedSession(services, intern, key, body.session_id, 'chat');
          const open = given === undefined ? undefined : await openRunOfSession(services.db, given);
          if (open?.status === 'awaiting_input') {
            // The answer to the paused run: stream its steps from the one after the pause.
            await runtime.answer(open.id, input);
            return { kind: 'stream' as const, sessionId: given!, runId: open.id, after: open.steps, answered: pendingId(open.pending), model: intern.model };
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
      // Leaving the stream does not stop the run: the intern carries on, and the session shows it.
      const gone = new AbortController();
      request.raw.on('close', () => gone.abort());
      reply.hijack();
      const sse = new SseWriter(reply.raw, { 'x-request-id': request.id });
      try {
        await sse.data(JSON.stringify(chunk(ctx, { role: 'assistant' })));
        for await (const event of requireRuntime(services).events(plan.runId, gone.signal)) {
          if (event.type === 'step' && event.seq <= plan.after) continue;
          // Until the run records the answer it still shows the question it was asked: not a new one.
          if (event.type === 'pending' && plan.answered !== undefined && pendingId(JSON.stringify(event.content)) === plan.answered) continue;
          for (const out of eventChunks(ctx, event)) await sse.data(JSON.stringify(out));
          // A paused run waits for the caller's next request on the session.
          if (event.type === 'pending') break;
        }
      } catch (error) {
        const failure = isGatewayError(error) ? error : Errors.internUnreachable('the run\'s events could not be read');
        request.log.error({ err: error }, 'intern chat stream failed');
        await sse.data(JSON.stringify(chunk(ctx, {}, 'error', { error: streamError(failure) })));
      }
      await sse.data('[DONE]');
      sse.end();
      return reply;
    },
  );
}

