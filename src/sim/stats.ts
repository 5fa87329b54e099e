import type { IncomingHttpHeaders } from 'node:http';

/**
 * What the simulator has received, for tests to check what the gateway sent
 * upstream (`GET /__sim/stats`); `POST /__sim/reset` clears it.
 */
export class SimStats {
  private readonly requests = new Map<string, number>();
  private lastRequestBody: unknown;
  private lastRequestHeaders: IncomingHttpHeaders | undefined;

  countRequest(path: string): void {
    this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
  }

  /** The body is kept parsed when it is JSON, as text otherwise. */
  recordChatRequest(body: unknown, headers: IncomingHttpHeaders): void {
    this.lastRequestBody = body;
    this.lastRequestHeaders = headers;
  }

  reset(): void {
    this.requests.clear();
    this.lastRequestBody = undefined;
    this.lastRequestHeaders = undefined;
  }

  toJSON() {
    return {
      requests: Object.fromEntries(this.requests),
      lastRequestBody: this.lastRequestBody,
      lastRequestHeaders: this.lastRequestHeaders,
    };
  }
}
