import { request, type Dispatcher } from 'undici';
import { classifyTransportFailure } from '../shared/classify-transport-failure.js';
import { poolFor } from '../shared/connection-pools.js';
import type { UpstreamResponse } from '../shared/send-upstream-request.js';
import { upstreamStatusError, type ProviderErrorParser } from '../shared/upstream-status-error.js';
import type { VideoAdapterContext } from '../../videos/video-adapter.js';

/**
 * A GET to an upstream, with sendUpstreamRequest's deadline and failure
 * classification (that one only POSTs JSON). The deadline covers the answer
 * until the caller stops it, so a download stops it once the headers are in.
 */
export async function getUpstream(call: {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  context: VideoAdapterContext;
  parseProviderError: ProviderErrorParser;
}): Promise<UpstreamResponse> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), call.timeoutMs);
  const stopDeadline = () => clearTimeout(timer);
  const classify = (error: unknown) => {
    stopDeadline();
    return classifyTransportFailure(error, { aborted: call.context.signal.aborted, timedOut: deadline.signal.aborted });
  };
  let response: Dispatcher.ResponseData;
  try {
    response = await request(call.url, {
      method: 'GET',
      headers: call.headers,
      signal: AbortSignal.any([call.context.signal, deadline.signal]),
      dispatcher: call.context.dispatcher ?? poolFor(new URL(call.url).origin),
    });
  } catch (error) {
    throw classify(error);
  }
  const { statusCode, headers, body } = response;
  if (statusCode < 200 || statusCode >= 300) {
    let text: string;
    try {
      text = await body.text();
    } catch (error) {
      throw classify(error);
    }
    stopDeadline();
    throw upstreamStatusError(statusCode, headers, text, call.parseProviderError);
  }
  return { statusCode, headers, body, stopDeadline, classify };
}
