import { createHash } from 'node:crypto';
import type { CompiledQuery, Kysely } from 'kysely';
import type { DestinationRouting } from '../store/repositories/observability-destinations.js';
import type { Database, GenerationRecord } from '../store/schema.js';

interface Route {
  id: string;
  keys: Set<string> | null;
  samplingRate: number;
}

/** The change-feed topic: a destination was created, changed or deleted somewhere (any payload). */
export const DESTINATIONS_TOPIC = 'observability-destinations';

/**
 * Every enabled destination by workspace, in memory, so that the ledger
 * decides without a read whether a generation has somewhere to go: a
 * workspace with none costs a Map lookup per row and no statement. Reloaded
 * whole on a change notice (DESTINATIONS_TOPIC) and every `refreshMs` as the
 * backstop for a lost notice; a failed reload keeps what is known.
 */
export class DestinationCache {
  private byWorkspace = new Map<string, Route[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly load: () => Promise<DestinationRouting[]>) {}

  async reload(): Promise<void> {
    const next = new Map<string, Route[]>();
    for (const row of await this.load()) {
      const routes = next.get(row.workspace_id) ?? [];
      routes.push({
        id: row.id,
        keys: row.api_key_hashes ? new Set(JSON.parse(row.api_key_hashes) as string[]) : null,
        samplingRate: row.sampling_rate,
      });
      next.set(row.workspace_id, routes);
    }
    this.byWorkspace = next;
  }

  start(refreshMs: number, onError: (error: unknown) => void): void {
    this.timer = setInterval(() => this.reload().catch(onError), refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * The outbox rows of a ledger batch, as one INSERT to run in its
   * transaction, or nothing when no row has a destination. A row goes to a
   * destination of its workspace whose key list (api_key_hashes) holds its
   * key and whose sample takes it: the sample is a hash of the generation and
   * the destination, so it is the same on every instance and every replay.
   */
  outboxStatement(db: Kysely<Database>, rows: readonly GenerationRecord[], now: string): CompiledQuery | undefined {
    if (this.byWorkspace.size === 0) return undefined;
    const values: { destination_id: string; generation_id: string; created_at: string }[] = [];
    for (const row of rows) {
      const routes = this.byWorkspace.get(row.workspace_id);
      if (!routes) continue;
      for (const route of routes) {
        if (route.keys && !route.keys.has(row.api_key_hash)) continue;
        if (route.samplingRate < 1 && sampleOf(row.id, route.id) >= route.samplingRate) continue;
        values.push({ destination_id: route.id, generation_id: row.id, created_at: now });
      }
    }
    return values.length > 0 ? db.insertInto('destination_events').values(values).compile() : undefined;
  }
}

/** A number in [0, 1) fixed by the generation and the destination. */
export function sampleOf(generationId: string, destinationId: string): number {
  return createHash('sha256').update(`${destinationId}:${generationId}`).digest().readUInt32BE(0) / 2 ** 32;
}
