import type { ChatCompletion, FinishReason, Usage } from '../protocol/chat.js';
import type { ResponseObject, ResponsesOutputItem, ResponsesRequest, ResponsesUsage } from '../protocol/responses.js';

/** Item ids as the Responses API makes them: `msg_…`, `fc_…`, `rs_…`, `ci_…` (passed in, so tests can fix them). */
export type ItemIds = (prefix: 'msg' | 'fc' | 'rs' | 'ci') => string;

/** Who answers: the response's id, the model named in it, and when it started (Unix seconds). */
export interface ResponseIdentity {
  id: string;
  model: string;
  createdAt: number;
}

/** A Response's usage from canonical usage: what the Responses API reports of it. */
export function responsesUsage(usage: Usage): ResponsesUsage {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage.total_tokens,
  };
}

/** The Response before any output: the request's settings echoed, as the API does, status in_progress. */
export function responseShell(request: ResponsesRequest, identity: ResponseIdentity): ResponseObject {
  return {
    id: identity.id,
    object: 'response',
    created_at: identity.createdAt,
    status: 'in_progress',
    model: identity.model,
    output: [],
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    metadata: request.metadata ?? null,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    temperature: request.temperature ?? null,
    top_p: request.top_p ?? null,
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map((tool) => ({ strict: true, description: null, parameters: null, ...tool })),
    text: { format: request.text?.format ?? { type: 'text' } },
    reasoning: request.reasoning ? { effort: request.reasoning.effort ?? null, summary: request.reasoning.summary ?? null } : null,
    store: false,
    previous_response_id: null,
    usage: null,
  };
}

/** A chat annotation as the Responses API lays it out: a url_citation's fields on the annotation itself. */
function responsesAnnotation(annotation: unknown): unknown {
  const citation = (annotation as { type?: unknown; url_citation?: Record<string, unknown> }).url_citation;
  return (annotation as { type?: unknown }).type === 'url_citation' && citation ? { type: 'url_citation', ...citation } : annotation;
}

/** How a chat answer's finish reason ends a Response: a cut answer is `incomplete`, with the reason. */
export function responseEnding(finishReason: FinishReason | undefined): Pick<ResponseObject, 'status' | 'incomplete_details'> {
  if (finishReason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/**
 * The Response of a non-streamed chat answer: a reasoning item when the model
 * showed its reasoning, a message item with the text (and refusal) when it
 * wrote any, then one function_call item per tool call, in order.
 */
export function convertChatCompletionToResponse(
  completion: ChatCompletion,
  shell: ResponseObject,
  ids: ItemIds,
  completedAt: number,
): ResponseObject {
  const choice = completion.choices[0];
  const message = choice?.message;
  const output: ResponsesOutputItem[] = [];
  if (message?.reasoning) {
    output.push({
      type: 'reasoning',
      id: ids('rs'),
      summary: [],
      content: [{ type: 'reasoning_text', text: message.reasoning }],
      status: 'completed',
    });
  }
  const status = choice?.finish_reason === 'length' ? 'incomplete' : 'completed';
  if (message?.content || message?.refusal) {
    output.push({
      type: 'message',
      id: ids('msg'),
      role: 'assistant',
      status,
      content: [
        ...(message.content
          ? [
              {
                type: 'output_text' as const,
                text: message.content,
                annotations: (message.annotations ?? []).map(responsesAnnotation),
                logprobs: [],
              },
            ]
          : []),
        ...(message.refusal ? [{ type: 'refusal' as const, refusal: message.refusal }] : []),
      ],
    });
  }
  for (const call of message?.tool_calls ?? []) {
    output.push({
      type: 'function_call',
      id: ids('fc'),
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: 'completed',
    });
  }
  return {
    ...shell,
    ...responseEnding(choice?.finish_reason),
    completed_at: completedAt,
    output,
    ...(completion.service_tier != null ? { service_tier: completion.service_tier } : {}),
    usage: completion.usage ? responsesUsage(completion.usage) : null,
  };
}
