import type { ChatAdapter, NativeMessages, NativeMessagesContext } from '../protocol/adapters.js';
import type { UpstreamTarget } from '../protocol/upstream.js';
import type { ChatRun, NativeMessagesRequest } from './run.js';

/**
 * How a POST /messages run reaches this attempt's endpoint untranslated: its
 * adapter's native calls with the client's body and headers, when the
 * adapter speaks Anthropic's API, the pipeline left the request as the
 * client sent it, no server tool needs the gateway's loop (which works
 * on canonical messages), and the endpoint takes structured outputs when the
 * body asks for them (else the translation asks the model for JSON with a
 * forced tool). Undefined otherwise: the canonical request goes, and its
 * answer is translated back.
 */
export function nativeMessagesOf(
  run: ChatRun,
  adapter: ChatAdapter,
  target: Pick<UpstreamTarget, 'supportedParameters'>,
  serverTools: number,
): { calls: NativeMessages; request: NativeMessagesRequest; context: (base: NativeMessagesContext) => NativeMessagesContext } | undefined {
  const native = run.native;
  if (!native || !adapter.messages || native.reads !== run.request || serverTools > 0) return undefined;
  if (native.body.output_config?.format && !(target.supportedParameters?.includes('structured_outputs') ?? true)) return undefined;
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
