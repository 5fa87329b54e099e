import { ExponentialBackoff, type IBackoff, type IBackoffFactory } from 'cockatiel';
import { type ChildHandle, InternChannel, type SpawnIntern } from './intern-process.js';
import type { ChildInit, ChildMessage } from './protocol.js';

export interface SupervisorHandlers {
  onCall(internId: string, runId: string, method: string, args: unknown): Promise<unknown>;
  onDone(internId: string, message: Extract<ChildMessage, { type: 'done' }>): void;
  /** The process answered (first start or a restart): runs it held may be assigned again. */
  onReady(internId: string): void;
  /** The process exited without being asked to; `restartInMs` is the backoff before the next start. */
  onCrash(internId: string, info: { code: number | null; signal: string | null; restartInMs: number }): void;
}

export interface SupervisorOptions {
  spawn: SpawnIntern;
  init(internId: string): ChildInit;
  handlers: SupervisorHandlers;
  /** How long a starting process has to answer. */
  startTimeoutMs: number;
  /** Restart delays (exponential with jitter, capped). */
  backoff?: IBackoffFactory<unknown>;
  /** A process that stayed up this long before crashing restarts from the first (shortest) delay again. */
  stableMs?: number;
}

interface Managed {
  internId: string;
  wanted: boolean;
  child?: ChildHandle;
  channel?: InternChannel;
  ready: boolean;
  /** The start in progress (first start or a restart), until it answers or fails. */
  launching?: Promise<void>;
  startedAt: number;
  backoff?: IBackoff<unknown>;
  timer?: NodeJS.Timeout;
  exited?: Promise<void>;
}

/**
 * Keeps one process per provisioned intern: started on provision (or at
 * start-up for interns already running), stopped on suspend/delete, and
 * restarted after a crash with exponential backoff (cockatiel). A crash only
 * ever affects that intern's process: the gateway sees an exit event.
 */
export class Supervisor {
  private readonly procs = new Map<string, Managed>();
  private readonly backoff: IBackoffFactory<unknown>;

  constructor(private readonly options: SupervisorOptions) {
    this.backoff = options.backoff ?? new ExponentialBackoff({ initialDelay: 200, maxDelay: 30_000 });
  }

  /** The channel of the intern's process when it is up and answering. */
  channel(internId: string): InternChannel | undefined {
    const managed = this.procs.get(internId);
    return managed?.ready && managed.channel?.open ? managed.channel : undefined;
  }

  readyInterns(): string[] {
    return [...this.procs.values()].filter((m) => m.ready && m.channel?.open).map((m) => m.internId);
  }

  /** Every intern this supervisor keeps a process for (up, starting or waiting to restart). */
  internIds(): string[] {
    return [...this.procs.keys()];
  }

  isWanted(internId: string): boolean {
    return this.procs.get(internId)?.wanted ?? false;
  }

  /**
   * Starts the intern's process (unless it is already up or starting) and
   * resolves once it answers; the first start failing rejects and gives up
   * (provision reports it). Crashes after that are restarted in the
   * background; while one waits out its backoff, this rejects.
   */
  async ensure(internId: string): Promise<void> {
    const existing = this.procs.get(internId);
    if (existing?.wanted && existing.ready) return;
    if (existing?.wanted && existing.launching) return existing.launching;
    if (existing?.wanted) throw new Error('its process is restarting after a crash');
    const managed: Managed = { internId, wanted: true, ready: false, startedAt: 0 };
    this.procs.set(internId, managed);
    try {
      await this.launch(managed);
    } catch (error) {
      managed.wanted = false;
      await this.halt(managed);
      this.procs.delete(internId);
      throw error;
    }
  }

  async stop(internId: string): Promise<void> {
    const managed = this.procs.get(internId);
    if (!managed) return;
    managed.wanted = false;
    this.procs.delete(internId);
    await this.halt(managed);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.procs.keys()].map((id) => this.stop(id)));
  }

  private launch(managed: Managed): Promise<void> {
    managed.launching = this.start(managed).finally(() => {
      managed.launching = undefined;
    });
    return managed.launching;
  }

  private async start(managed: Managed): Promise<void> {
    const { internId } = managed;
    const child = this.options.spawn(internId);
    managed.child = child;
    managed.ready = false;
    managed.startedAt = Date.now();
    const channel = new InternChannel(child, {
      onCall: (runId, method, args) => this.options.handlers.onCall(internId, runId, method, args),
      onDone: (message) => this.options.handlers.onDone(internId, message),
    });
    managed.channel = channel;
    managed.exited = new Promise((resolve) => child.on('exit', () => resolve()));
    child.on('exit', (code, signal) => {
      if (managed.child !== child) return;
      managed.ready = false;
      if (!managed.wanted) return;
      const delay = this.nextDelay(managed);
      this.options.handlers.onCrash(internId, { code, signal, restartInMs: delay });
      managed.timer = setTimeout(() => {
        if (!managed.wanted) return;
        this.launch(managed).catch(() => {
          // launch failures end in an exit of that child, which schedules the next attempt.
          managed.child?.kill('SIGKILL');
        });
      }, delay);
    });
    await channel.request({ type: 'init', init: this.options.init(internId) }, this.options.startTimeoutMs);
    await channel.request({ type: 'ping' }, this.options.startTimeoutMs);
    managed.ready = true;
    this.options.handlers.onReady(internId);
  }

  private nextDelay(managed: Managed): number {
    const stable = Date.now() - managed.startedAt >= (this.options.stableMs ?? 60_000);
    managed.backoff = !managed.backoff || stable ? this.backoff.next(undefined) : managed.backoff.next(undefined);
    return managed.backoff.duration;
  }

  private async halt(managed: Managed): Promise<void> {
    clearTimeout(managed.timer);
    managed.ready = false;
    managed.channel?.close();
    const child = managed.child;
    if (!child) return;
    // The child keeps nothing the parent does not have (the transcript is in the database): no graceful drain is needed.
    child.kill('SIGTERM');
    const killed = setTimeout(() => child.kill('SIGKILL'), 2_000);
    await managed.exited;
    clearTimeout(killed);
  }
}
