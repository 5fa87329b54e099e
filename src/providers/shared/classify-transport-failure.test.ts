import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../protocol/upstream.js';
import { classifyTransportFailure } from './classify-transport-failure.js';

const quiet = { aborted: false, timedOut: false };

function nodeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('classifyTransportFailure', () => {
  it('calls refused, reset and closed sockets connection failures', () => {
    for (const error of [
      nodeError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'),
      nodeError('ECONNRESET', 'read ECONNRESET'),
      nodeError('UND_ERR_SOCKET', 'other side closed'),
      nodeError('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'),
      nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND upstream.invalid'),
    ]) {
      const classified = classifyTransportFailure(error, quiet);
      expect(classified.failure).toBe('connection');
      expect(classified.message).toContain(error.message);
      expect(classified.cause).toBe(error);
    }
  });

  it('calls a process out of descriptors or memory its own failure, not the upstream’s', () => {
    for (const error of [
      nodeError('EMFILE', 'connect EMFILE 127.0.0.1:443 - Local (undefined:undefined)'),
      nodeError('ENFILE', 'file table overflow'),
      nodeError('ENOBUFS', 'no buffer space'),
    ]) {
      const classified = classifyTransportFailure(error, quiet);
      expect(classified.failure).toBe('local');
      expect(classified.message).toMatch(/^the gateway could not open a connection \(/);
      expect(classified.message).toContain(error.message);
    }
  });

  it('reads the code from a wrapped cause', () => {
    const wrapped = new TypeError('fetch failed', { cause: nodeError('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error') });
    expect(classifyTransportFailure(wrapped, quiet).failure).toBe('timeout');
  });

  it("calls undici's idle limits and a TimeoutError timeouts", () => {
    expect(classifyTransportFailure(nodeError('UND_ERR_BODY_TIMEOUT', 'Body Timeout Error'), quiet).failure).toBe('timeout');
    expect(classifyTransportFailure(new DOMException('timed out', 'TimeoutError'), quiet).failure).toBe('timeout');
  });

  it('trusts our own signals over the shape of the error', () => {
    const socketClosed = nodeError('UND_ERR_SOCKET', 'other side closed');
    expect(classifyTransportFailure(socketClosed, { aborted: true, timedOut: false }).failure).toBe('aborted');
    expect(classifyTransportFailure(socketClosed, { aborted: false, timedOut: true }).failure).toBe('timeout');
    // the caller going away wins over a deadline that fired in the same tick
    expect(classifyTransportFailure(socketClosed, { aborted: true, timedOut: true }).failure).toBe('aborted');
  });

  it('calls an AbortError aborted, unless our deadline caused it', () => {
    const abortError = new DOMException('This operation was aborted', 'AbortError');
    expect(classifyTransportFailure(abortError, quiet).failure).toBe('aborted');
    expect(classifyTransportFailure(abortError, { aborted: false, timedOut: true }).failure).toBe('timeout');
  });

  it('passes an UpstreamError through unchanged', () => {
    const original = new UpstreamError('malformed', 'not JSON');
    expect(classifyTransportFailure(original, { aborted: true, timedOut: true })).toBe(original);
  });
});
