import type { ChatCompletion, ChatMessage, ChatRequest, Usage } from '../../chat/types.js';
import type { StageEntry } from '../stage-entry.js';
import { WEB_FETCH_FUNCTION, WEB_FETCH_TOOL_NAME, type WebFetchTool } from './web-fetch-tool.js';

/** Rounds of tool calls one request may make; the model's answer after the last round is returned as it is. */
export const MAX_TOOL_ROUNDS = 5;

const addUsage = (a: Usage | undefined, b: Usage | undefined): Usage | undefined =>
  a && b
    ? { ...b, prompt_tokens: a.prompt_tokens + b.prompt_tokens, completion_tokens: a.completion_tokens + b.completion_tokens, total_tokens: a.total_tokens + b.total_tokens }
    : (b ?? a);

/**
 * A non-streaming completion with the web_fetch server tool offered next to
 * the client's tools: while the model's answer calls only web_fetch, the
 * gateway fetches, appends the call and its result, and asks again. An
 * answer that calls a client tool goes back to the client as it is. Usage
 * adds up over the rounds, so every round is billed.
 */
export async function completeWithWebFetch(
  request: ChatRequest,
  tool: WebFetchTool,
  complete: (request: ChatRequest) => Promise<ChatCompletion>,
  signal: AbortSignal,
): Promise<{ completion: ChatCompletion; entry: StageEntry }> {
  const messages: ChatMessage[] = [...request.messages];
  const tools = [...(request.tools ?? []), WEB_FETCH_FUNCTION];
  const calls: Record<string, unknown>[] = [];
  let usage: Usage | undefined;
  for (let round = 0; ; round++) {
    const completion = await complete({ ...request, messages, tools });
    usage = addUsage(usage, completion.usage);
    const message = completion.choices[0]?.message;
    const toolCalls = message?.tool_calls ?? [];
    const serverOnly = toolCalls.length > 0 && toolCalls.every((call) => call.function.name === WEB_FETCH_TOOL_NAME);
    if (!serverOnly || round === MAX_TOOL_ROUNDS) {
      const ended = serverOnly ? `stopped after ${MAX_TOOL_ROUNDS} rounds` : 'answered';
      return {
        completion: usage ? { ...completion, usage } : completion,
        entry: {
          type: 'server_tools',
          name: 'web-fetch',
          summary: `${calls.length} fetch${calls.length === 1 ? '' : 'es'} in ${round} round${round === 1 ? '' : 's'}; ${ended}`,
          data: { tool: WEB_FETCH_TOOL_NAME, calls, rounds: round },
        },
      };
    }
    messages.push({ role: 'assistant', content: message?.content ?? null, tool_calls: toolCalls });
    for (const call of toolCalls) {
      const result = await tool.call(call.function.arguments, signal);
      calls.push({ ok: result.ok, ...result.record });
      messages.push({ role: 'tool', tool_call_id: call.id, content: result.content });
    }
  }
}
