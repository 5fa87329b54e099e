import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { Lifecycle, Phase } from './lifecycle.js';

/** What GET /ready reports. */
export interface Readiness {
  ready: boolean;
  /** Why not, in a few words, when not ready. */
  reason?: string;
  phase: Phase;
  checks: {
    database?: 'up' | 'unreachable';
    migrations?: 'current' | 'pending' | 'unknown';
    /** Absent when no Redis is configured; while it is unavailable this instance serves on its own state, and stays ready. */
    redis?: 'up' | 'unavailable';
    /** Ledger rows accepted while the database was away and not yet written back. */
    ledger_outbox_rows?: number;
  };
}

export interface ReadinessSources {
  /** The migrations the database has not run (store/migrate.ts): a read that also tells whether it answers. */
  pendingMigrations: () => Promise<string[]>;
  lifecycle: Lifecycle;
  redis?: { readonly available: boolean };
  outbox?: { readonly rows: number };
  /** How long the database check's answer is kept: probes do not each cost a round trip. */
  cacheMs?: number;
  /** A database that does not answer the check by then is unreachable. */
  timeoutMs?: number;
}

interface DatabaseCheck {
  database: 'up' | 'unreachable';
  migrations: 'current' | 'pending' | 'unknown';
  pending: string[];
}

/**
 * The readiness check: not ready while starting or draining, nor while the
 * database does not answer or misses migrations this build needs. The
 * database is read at most once per `cacheMs` (concurrent probes share the
 * read), and the phase is read live. Redis and the ledger outbox are
 * reported, not required: the gateway serves through a Redis outage on its
 * own state, and the outbox empties by itself.
 */
export function readinessCheck(sources: ReadinessSources): () => Promise<Readiness> {
  const { lifecycle, redis, outbox } = sources;
  const timeoutMs = sources.timeoutMs ?? 2_000;
  const database = new LRUCache<'database', DatabaseCheck>({
    max: 1,
    ttl: sources.cacheMs ?? 1_000,
    fetchMethod: async () => {
      const read = sources.pendingMigrations().then((pending) => ({
        database: 'up' as const,
        migrations: pending.length > 0 ? ('pending' as const) : ('current' as const),
        pending,
      }));
      const timer = new AbortController();
      const late = sleep(timeoutMs, undefined, { ref: false, signal: timer.signal }).then(() =>
        Promise.reject(new Error('no answer in time')),
      );
      return Promise.race([read, late])
        .catch(() => ({ database: 'unreachable' as const, migrations: 'unknown' as const, pending: [] }))
        .finally(() => timer.abort());
    },
  });
  return async () => {
    const phase = lifecycle.phase;
    const shared = {
      ...(redis ? { redis: redis.available ? ('up' as const) : ('unavailable' as const) } : {}),
      ...(outbox ? { ledger_outbox_rows: outbox.rows } : {}),
    };
    if (phase === 'starting') return { ready: false, reason: 'the gateway is starting', phase, checks: shared };
    if (phase === 'draining') return { ready: false, reason: 'the gateway is shutting down', phase, checks: shared };
    const { pending, ...checked } = (await database.fetch('database'))!;
    const checks = { ...checked, ...shared };
    if (checked.database === 'unreachable') return { ready: false, reason: 'the database is unreachable', phase, checks };
    if (pending.length > 0)
      return { ready: false, reason: `the database misses migrations ${pending.join(', ')} (run model-gateway migrate)`, phase, checks };
    return { ready: true, phase, checks };
  };
}
