import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

const HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // Reverse proxies (nginx) must not hold events back.
  'x-accel-buffering': 'no',
};

/**
 * Server-sent events onto a raw response, one write per event, waiting for
 * 'drain' when the client reads slower than we produce (backpressure), so a
 * slow reader slows the upstream read instead of growing our memory.
 */
export class SseWriter {
  private opened = false;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly raw: ServerResponse,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  get started(): boolean {
    return this.opened;
  }

  /** True once the client has gone away or the response has ended. */
  get closed(): boolean {
    return this.raw.destroyed || this.raw.writableEnded;
  }

  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.raw.writeHead(200, { ...HEADERS, ...this.extraHeaders });
    this.raw.flushHeaders();
  }

  /** `data: <json>` */
  async data(payload: string): Promise<void> {
    await this.write(`data: ${payload}\n\n`);
  }

  /** `event: <name>` and `data: <json>`: a named event, as the Responses API and Anthropic's streams send them. */
  async event(name: string, payload: string): Promise<void> {
    await this.write(`event: ${name}\ndata: ${payload}\n\n`);
  }

  /** A comment line: ignored by clients, keeps idle connections and proxies alive. */
  async comment(text: string): Promise<void> {
    await this.write(`: ${text}\n\n`);
  }

  /**
   * A `: keepalive` comment whenever nothing else has been written for `ms`:
   * a stream that is silent for long (an intern at work) still writes, so a
   * client that left is noticed and proxies do not drop the connection.
   */
  keepAlive(ms: number): void {
    this.idle = setInterval(() => void this.comment('keepalive'), ms);
    this.raw.once('close', () => clearInterval(this.idle));
  }

  end(): void {
    clearInterval(this.idle);
    if (!this.closed) this.raw.end();
  }

  private async write(text: string): Promise<void> {
    this.open();
    if (this.closed) return;
    // Anything written counts as a sign of life: the keepalive waits a full interval from here.
    this.idle?.refresh();
    if (!this.raw.write(text)) {
      await Promise.race([once(this.raw, 'drain'), once(this.raw, 'close')]);
    }
  }
}
