import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ParentMessage, ParentRequest } from './protocol.js';

/** What the supervisor needs of a child process (a forked one, or a fake in tests). */
export interface ChildHandle {
  /** A failed send (the process gone: EPIPE) reaches the callback; without one Node raises it as the process's 'error'. */
  send(message: ParentMessage, callback?: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  kill(signal?: NodeJS.Signals): boolean;
  readonly connected: boolean;
  readonly pid?: number | undefined;
}

export type SpawnIntern = (internId: string) => ChildHandle;

/**
 * Forks the intern's process: the compiled entry next to this file in dist,
 * or the TypeScript one through tsx when the gateway itself runs from src
 * (vitest, tsx).
 */
export const forkIntern: SpawnIntern = (internId) => {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./child-entry.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  const child: ChildProcess = fork(entry, [internId], {
    execArgv: fromSource ? ['--import', 'tsx'] : [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return child as ChildHandle;
};

export class ChannelClosedError extends Error {
  override readonly name = 'ChannelClosedError';
}
export class AckTimeoutError extends Error {
  override readonly name = 'AckTimeoutError';
}

type Request = ParentRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * The parent's end of one child: requests acknowledged by id within a time
 * limit, and the child's calls handed to `onCall` whose result (or failure)
 * is sent back as a reply.
 */
export class InternChannel {
  private nextId = 1;
  private readonly acks = new Map<number, { resolve: () => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  private closed = false;

  constructor(
    readonly child: ChildHandle,
    private readonly handlers: {
      onCall(runId: string, method: string, args: unknown): Promise<unknown>;
      onDone(message: Extract<ChildMessage, { type: 'done' }>): void;
    },
  ) {
    child.on('message', (raw) => this.receive(raw as ChildMessage));
    child.on('exit', () => this.close());
    // A process that could not be forked or whose channel broke: unanswered, an 'error' would take the gateway down.
    child.on('error', () => this.close());
  }

  get open(): boolean {
    return !this.closed && this.child.connected;
  }

  /** Sends a request and waits for its acknowledgement. */
  request(message: Request, timeoutMs: number): Promise<void> {
    if (!this.open) return Promise.reject(new ChannelClosedError('the intern process is not running'));
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.acks.delete(id);
        reject(new AckTimeoutError(`the intern process did not acknowledge ${message.type} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.acks.set(id, { resolve, reject, timer });
      const failed = (error: unknown) => {
        clearTimeout(timer);
        this.acks.delete(id);
        reject(new ChannelClosedError(error instanceof Error ? error.message : String(error)));
      };
      try {
        // The process may die between the check above and the write: the write then fails later, here.
        this.child.send({ ...message, id } as ParentMessage, (error) => error && failed(error));
      } catch (error) {
        failed(error);
      }
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const [id, ack] of this.acks) {
      clearTimeout(ack.timer);
      ack.reject(new ChannelClosedError('the intern process exited'));
      this.acks.delete(id);
    }
  }

  private receive(message: ChildMessage): void {
    switch (message.type) {
      case 'ack': {
        const ack = this.acks.get(message.id);
        if (!ack) return;
        this.acks.delete(message.id);
        clearTimeout(ack.timer);
        if (message.ok) ack.resolve();
        else ack.reject(new Error(message.error));
        return;
      }
      case 'call':
        this.handlers.onCall(message.runId, message.method, message.args).then(
          (value) => this.reply({ type: 'reply', id: message.id, ok: true, value }),
          (error: unknown) =>
            this.reply({ type: 'reply', id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
        );
        return;
      case 'done':
        this.handlers.onDone(message);
        return;
    }
  }

  private reply(message: ParentMessage): void {
    // A reply to a process that died meanwhile has no one to read it; its exit is handled where it is seen.
    if (this.open) this.child.send(message, () => undefined);
  }
}
