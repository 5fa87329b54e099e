import { adapterFor } from '../chat/adapter-for.js';
import { answerTextOf, checkChatUsage } from '../chat/check-chat-usage.js';
import { completeWithRunTools, withLoopEntry } from '../chat/complete-chat.js';
import type { AnswerText } from '../chat/estimate-tokens.js';
import type { ChatRun } from '../chat/run.js';
import type { ChatServices } from '../chat/run-services.js';
import { serveRun } from '../chat/serve-run.js';
import { serviceMetadata } from '../chat/service-metadata.js';
import { settleRun } from '../chat/settle-run.js';
import { withWebSearches } from '../chat/sum-usage.js';
import type { PipelineEntry } from '../plugins/pipeline-entry.js';
import type { FinishReason, Usage } from '../protocol/chat.js';
import type { ResponseObject, ResponsesRequest } from '../protocol/responses.js';
import { UpstreamError } from '../protocol/upstream.js';
import { convertOpenAIResponsesUsage } from '../providers/openai/convert-openai-responses-usage.js';
import { includesCodeOutputs, withCodeRuns } from './code-interpreter-call.js';
import { convertChatCompletionToResponse, responseShell, responsesUsage } from './convert-chat-to-response.js';
import { ownResponse } from './own-response.js';
import { answerTextOfResponse, generatedTextOf, newItemId, responseFinishReason } from './read-response.js';

/** A POST /responses on its way: the chat run that routes, reserves and bills it, the client's body, and whether it may go natively. */
export interface ResponsesCall {
  run: ChatRun;
  body: ResponsesRequest;
  /** False when the run's request is no longer the client's body alone (a preset merged, a plugin changed it: redacted, searched, compressed): then every endpoint gets the chat request. */
  native: boolean;
}

/** One attempt's answer, whichever way it went: the Response, and what billing reads of it. */
interface Answered {
  response: ResponseObject;
  usage: Usage | undefined;
  answer: AnswerText;
  finishReason: FinishReason;
  upstreamId: string;
  serviceTier: string | null;
  /** What the server tools' own rows cost (code runs): part of the answer's cost. */
  innerCost: number;
  /** The server-tool loop's pipeline entry, when the run had one. */
  entry?: PipelineEntry;
}

/**
 * After a native Responses call failed: undefined (go on as chat, on the same
 * endpoint) for a 404, the answer of a host that copies OpenAI's Chat
 * Completions but not its Responses API (a model it does not know is refused
 * there again); any other failure stands.
 */
export function orChat(error: unknown): undefined {
  if (error instanceof UpstreamError && error.failure === 'status' && error.details.status === 404) return undefined;
  throw error;
}

/**
 * A non-streamed POST /responses: the plan's attempts in order, each on its
 * endpoint's native Responses API when its protocol has one, else as a chat
 * completion translated back to a Response; the usage checked and billed as
 * chat's, the ledger row written, and the Response answered with the
 * generation's id, the model that served and the cost.
 */
export function completeResponses(
  services: ChatServices,
  { run, body, native }: ResponsesCall,
  signal: AbortSignal,
): Promise<ResponseObject> {
  return serveRun(
    services,
    run,
    signal,
    async (attempt): Promise<Answered> => {
      const { adapter, target } = adapterFor(services, attempt);
      const context = { signal, endUserId: run.endUserId };
      const response = native && adapter.responses ? await adapter.responses.complete(body, target, context).catch(orChat) : undefined;
      if (response) {
        return {
          response,
          usage: convertOpenAIResponsesUsage(response.usage),
          answer: answerTextOfResponse(response.output),
          finishReason: responseFinishReason(response),
          upstreamId: response.id,
          serviceTier: response.service_tier ?? null,
          innerCost: 0,
        };
      }
      const {
        result: completion,
        innerCost,
        entry,
        runs = [],
      } = await completeWithRunTools(services, run, attempt, (request) => adapter.complete(request, target, context), signal);
      const now = Math.floor(services.clock().getTime() / 1000);
      const shell = responseShell(body, { id: run.id, model: attempt.modelId, createdAt: Math.floor(run.startedAt / 1000) });
      return {
        response: withCodeRuns(
          convertChatCompletionToResponse(completion, shell, newItemId, now),
          runs,
          newItemId,
          includesCodeOutputs(body),
        ),
        usage: completion.usage,
        answer: answerTextOf(completion),
        finishReason: completion.choices[0]?.finish_reason ?? null,
        upstreamId: completion.id,
        serviceTier: completion.service_tier ?? null,
        innerCost,
        ...(entry ? { entry } : {}),
      };
    },
    async ({ result, attempt, outcomes }) => {
      const checked = await checkChatUsage(result.usage, run.request, attempt.endpoint, result.answer);
      const usage = withWebSearches(checked.usage, run.webSearches);
      const finished = withLoopEntry(run, result.entry);
      const { cost } = await settleRun(services, finished, {
        status: 'success',
        streamed: false,
        attempt,
        outcomes,
        usage,
        usageEstimated: checked.estimated,
        finishReason: result.finishReason,
        serviceTier: result.serviceTier,
        upstreamId: result.upstreamId,
        ...(run.storedInput ? { output: generatedTextOf(result.response.output) } : {}),
      });
      return {
        ...ownResponse(result.response, { id: run.id, model: attempt.modelId }, body),
        usage: { ...responsesUsage(usage), cost: cost + result.innerCost + (run.innerCost ?? 0) },
        ...(run.wantsMetadata ? { service_metadata: serviceMetadata({ ...finished.routing, attempts: outcomes }) } : {}),
      };
    },
  );
}
