import { UpstreamError } from '../../protocol/upstream.js';
import { isRecord } from '../../util/is-record.js';

/** Which of our own signals had fired when the request failed: they decide before the error's shape does. */
export interface SignalState {
  /** The caller's signal (client went away). */
  aborted: boolean;
  /** The adapter's deadline (timeoutMs, or the first-chunk limit of a stream). */
  timedOut: boolean;
}

/** undici's own idle limits (headersTimeout, bodyTimeout): the upstream went quiet. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The gateway's own process or machine ran out of something a connection needs: the upstream was never reached. */
const LOCAL_CODES = new Set(['EMFILE', 'ENFILE', 'ENOBUFS', 'ENOMEM']);

/**
 * Turns whatever a request or body read threw into an UpstreamError. Our
 * signals are checked first because an abort surfaces as many different
 * errors (AbortError, the signal's reason, a destroyed socket). A process
 * out of file descriptors or memory is the gateway's own failure. Everything
 * else that is not a timeout (refused, reset, DNS, TLS, "other side closed")
 * is a connection failure. An UpstreamError passes through unchanged.
 */
export function classifyTransportFailure(error: unknown, signals: SignalState): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const detail = describe(error);
  let classified: UpstreamError;
  if (signals.aborted || (!signals.timedOut && nameOf(error) === 'AbortError')) {
    classified = new UpstreamError('aborted', 'request cancelled by the caller');
  } else if (LOCAL_CODES.has(codeOf(error) ?? '')) {
    classified = new UpstreamError('local', `the gateway could not open a connection (${detail})`);
  } else if (signals.timedOut || nameOf(error) === 'TimeoutError' || TIMEOUT_CODES.has(codeOf(error) ?? '')) {
    classified = new UpstreamError('timeout', `upstream did not answer in time (${detail})`);
  } else {
    classified = new UpstreamError('connection', `upstream connection failed (${detail})`);
  }
  classified.cause = error;
  return classified;
}

function nameOf(error: unknown): unknown {
  return isRecord(error) ? error.name : undefined;
}

/** Node and undici put the code on the error, fetch-style wrappers on its cause. */
function codeOf(error: unknown): string | undefined {
  if (!isRecord(error)) return undefined;
  if (typeof error.code === 'string') return error.code;
  return isRecord(error.cause) && typeof error.cause.code === 'string' ? error.cause.code : undefined;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = codeOf(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
