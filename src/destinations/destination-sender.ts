import type { Kysely } from 'kysely';
import type { SafeFetcher } from '../net/safe-fetch.js';
import {
  claimDestination,
  deadLetter,
  deleteEvents,
  dueDestinations,
  noteFailure,
  noteSuccess,
  pendingEvents,
  releaseDestination,
} from '../store/repositories/destination-events.js';
import type { DestinationRow } from '../store/repositories/observability-destinations.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import { newUuid } from '../util/ids.js';
import { type ConfigBox, openConfig } from './destination-record.js';
import { isSupportedType } from './destination-types.js';
import { DeliveryError } from './exporters/deliver.js';
import { EXPORTERS } from './exporters/exporters.js';
import { type FilterRules, passesFilter } from './filter-rules.js';
import { broadcastFlags, filterFacts, generationEvent } from './generation-event.js';

export interface SenderOptions {
  /** How often the outbox is looked at. */
  intervalMs: number;
  /** Events per request (Langfuse, OTLP) or per claim (the webhook, one request each). */
  batchSize: number;
  /** How long a claim on a destination lasts; renewed with each batch. */
  leaseMs: number;
  /** One request to a receiver: connecting, sending, reading its (bounded) answer. */
  timeoutMs: number;
  /** An event still undelivered this long after it was queued goes to the dead letters. */
  retryWindowMs: number;
  /** The backoff after the n-th failure in a row: base·2ⁿ⁻¹, at most max, jittered down by up to half. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const SENDER_DEFAULTS: SenderOptions = {
  intervalMs: 250,
  batchSize: 100,
  leaseMs: 60_000,
  timeoutMs: 10_000,
  retryWindowMs: 24 * 3_600_000,
  backoffBaseMs: 1_000,
  backoffMaxMs: 5 * 60_000,
};

export interface SenderServices {
  db: Kysely<Database>;
  clock: Clock;
  box: ConfigBox;
  fetcher: SafeFetcher;
  random: () => number;
  log: (message: string, error: unknown) => void;
}

/** The wait after `failures` failures in a row (Retry-After wins when the receiver gives one, within the maximum). */
export function backoffMs(
  failures: number,
  options: Pick<SenderOptions, 'backoffBaseMs' | 'backoffMaxMs'>,
  random: number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.backoffMaxMs);
  const full = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(full * (0.5 + random / 2));
}

/**
 * The background sender: each look claims the due destinations (a lease in
 * their row: one instance at a time, so each event is sent once and in
 * order), sends their oldest events in batches, deletes what was delivered,
 * and after a failure leaves the rest for after a backoff, or for the dead
 * letters once older than the retry window (or refused for good, a 4xx). The
 * request path never waits for it: the ledger only wrote the outbox rows.
 */
export class DestinationSender {
  private readonly owner = newUuid();
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  /**
   * The destinations this instance is sending to, each until its backlog is empty. Each is sent on its own: one
   * with a long backlog (a webhook takes a request per event) never holds back another that became due meanwhile.
   */
  private readonly sending = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly services: SenderServices,
    private readonly options: SenderOptions = SENDER_DEFAULTS,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.looking) this.looking = this.look().finally(() => (this.looking = undefined));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    await this.looking;
    await Promise.all(this.sending.values());
  }

  /** One look at the outbox: starts sending to each due destination not already being sent to. */
  private async look(): Promise<void> {
    try {
      const due = await dueDestinations(this.services.db, this.now(), 32);
      for (const destination of due) {
        if (this.sending.has(destination.id) || this.stopping.signal.aborted) continue;
        const sent = this.sendDestination(destination).finally(() => this.sending.delete(destination.id));
        this.sending.set(destination.id, sent);
      }
    } catch (error) {
      this.services.log('observability destinations: looking at the outbox failed', error);
    }
  }

  private now = () => this.services.clock().toISOString();
  private leaseEnd = () => new Date(this.services.clock().getTime() + this.options.leaseMs).toISOString();

  private async sendDestination(destination: DestinationRow): Promise<void> {
    const { db } = this.services;
    if (!(await claimDestination(db, destination.id, this.owner, this.now(), this.leaseEnd()))) return;
    try {
      let failures = destination.failures;
      while (!this.stopping.signal.aborted) {
        const outcome = await this.sendBatch(destination, failures);
        if (outcome === 'failed' || outcome === 'empty') break;
        failures = 0;
        await claimDestination(db, destination.id, this.owner, this.now(), this.leaseEnd()).catch(() => false);
      }
    } catch (error) {
      this.services.log(`observability destination ${destination.id}: sending failed`, error);
    } finally {
      await releaseDestination(db, destination.id, this.owner).catch(() => undefined);
    }
  }

  private async sendBatch(destination: DestinationRow, failures: number): Promise<'sent' | 'failed' | 'empty'> {
    const { db } = this.services;
    const pending = await pendingEvents(db, destination.id, this.options.batchSize);
    if (pending.length === 0) return 'empty';
    if (!isSupportedType(destination.type)) {
      await deadLetter(
        db,
        pending.map((p) => p.event_id),
        `type ${destination.type} has no exporter`,
        this.now(),
      );
      return 'sent';
    }
    const rules = destination.filter_rules ? (JSON.parse(destination.filter_rules) as FilterRules) : null;
    const flags = broadcastFlags(destination);
    const passing = pending.filter((p) => passesFilter(rules, filterFacts(p)));
    const filteredOut = pending.filter((p) => !passing.includes(p)).map((p) => p.event_id);
    await deleteEvents(db, filteredOut);
    if (passing.length === 0) return 'sent';
    let delivered = 0;
    try {
      await EXPORTERS[destination.type](
        openConfig(this.services.box, destination),
        passing.map((p) => generationEvent(p, flags)),
        { fetcher: this.services.fetcher, timeoutMs: this.options.timeoutMs, signal: this.stopping.signal },
        (count) => (delivered = count),
      );
      delivered = passing.length;
      await deleteEvents(
        db,
        passing.map((p) => p.event_id),
      );
      await noteSuccess(db, destination.id, this.now());
      return 'sent';
    } catch (error) {
      await deleteEvents(
        db,
        passing.slice(0, delivered).map((p) => p.event_id),
      );
      await this.failed(destination, failures, passing.slice(delivered), error);
      return 'failed';
    }
  }

  private async failed(
    destination: DestinationRow,
    failures: number,
    undelivered: { event_id: number; created_at: string }[],
    error: unknown,
  ): Promise<void> {
    const { db, clock } = this.services;
    const message = error instanceof Error ? error.message : String(error);
    const now = clock().getTime();
    const permanent = error instanceof DeliveryError ? !error.retryable : true;
    const expired = undelivered
      .filter((e) => permanent || now - Date.parse(e.created_at) >= this.options.retryWindowMs)
      .map((e) => e.event_id);
    const wait = backoffMs(
      failures + 1,
      this.options,
      this.services.random(),
      error instanceof DeliveryError ? error.retryAfterMs : undefined,
    );
    await noteFailure(
      db,
      { id: destination.id, failures },
      undelivered.map((e) => e.event_id),
      expired,
      message,
      {
        now: new Date(now).toISOString(),
        retryAt: new Date(now + wait).toISOString(),
      },
    );
  }
}
