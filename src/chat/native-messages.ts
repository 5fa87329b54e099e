import type { ChatAdapter, NativeMessages, NativeMessagesContext } from '../protocol/adapters.js';
import type { ChatRun, NativeMessagesRequest } from './run.js';

/**
 * How a POST /messages run reaches this attempt's endpoint untranslated: its
 * adapter's native calls with the client's body and headers, when the
 * adapter speaks Anthropic's API, the pipeline left the request as the
 * client sent it, and no server tool needs the gateway's loop (which works
 * on canonical messages). Undefined otherwise: the canonical request goes,
 * and its answer is translated back.
 */
export function nativeMessagesOf(
  run: ChatRun,
  adapter: ChatAdapter,
  serverTools: number,
): { calls: NativeMessages; request: NativeMessagesRequest; context: (base: NativeMessagesContext) => NativeMessagesContext } | undefined {
  const native = run.native;
  if (!native || !adapter.messages || native.reads !== run.request || serverTools > 0) return undefined;
  return {
    calls: adapter.messages,
    request: native,
    context: (base) => ({
      ...base,
      ...(native.anthropicVersion ? { anthropicVersion: native.anthropicVersion } : {}),
      ...(native.anthropicBeta ? { anthropicBeta: native.anthropicBeta } : {}),
    }),
  };
}
