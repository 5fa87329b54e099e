import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { internById } from './intern-rows.js';
import type { Supervisor } from './supervisor.js';

/** Change-feed topic naming an intern whose status moved to or from running: every instance brings its process in line. */
export const INTERN_PROCESS_TOPIC = 'intern-process';

export interface ReconcilerOptions {
  db: Kysely<Database>;
  supervisor: Supervisor;
  now(): Date;
  /** Interns this instance is provisioning right now: their status is its to decide, their process its to start. */
  provisioningHere: ReadonlySet<string>;
  /** A provisioning left this long unresolved belongs to an instance that died: this one finishes it. */
  staleProvisioningMs: number;
  /** After a process failed to start here, how long before trying again. */
  retryMs: number;
  /** Finishes the provisioning of an intern (the decision an instance that died left open). */
  provision(internId: string): void;
  /** This instance's process of the intern stopped: forget the runs it drove here (they were ended or are resumed elsewhere). */
  onStopped(internId: string): void;
  log(message: string, detail?: unknown): void;
}

/**
 * Makes this instance's processes follow the database: an intern whose status
 * is running has a process on every live instance (so any instance takes its
 * runs, starts new ones and resumes those a dead instance left), and one that
 * is not running has none. The change feed brings a notice at once; the
 * periodic pass catches notices lost on the way. Status itself is never
 * moved here, except for a provisioning abandoned by a dead instance.
 */
export function processReconciler(options: ReconcilerOptions) {
  const { db, supervisor } = options;
  const retryAt = new Map<string, number>();

  function start(internId: string): void {
    if (supervisor.isWanted(internId) || options.provisioningHere.has(internId) || (retryAt.get(internId) ?? 0) > Date.now()) return;
    supervisor.ensure(internId).then(
      () => retryAt.delete(internId),
      (error: unknown) => {
        retryAt.set(internId, Date.now() + options.retryMs);
        options.log(`intern ${internId} process did not start on this instance`, error);
      },
    );
  }

  async function stop(internId: string): Promise<void> {
    if (!supervisor.isWanted(internId) || options.provisioningHere.has(internId)) return;
    await supervisor.stop(internId);
    options.onStopped(internId);
  }

  return {
    /** One intern, on a change notice. */
    async one(internId: string): Promise<void> {
      const intern = await internById(db, internId);
      if (intern?.status === 'running') start(internId);
      else if (intern?.status !== 'provisioning') await stop(internId);
    },

    /** Every intern: the periodic pass. */
    async all(): Promise<void> {
      const rows = await db
        .selectFrom('interns')
        .select(['id', 'status', 'updated_at'])
        .where('status', 'in', ['running', 'provisioning'])
        .execute();
      const live = new Set(rows.map((row) => row.id));
      for (const row of rows) {
        if (row.status === 'running') start(row.id);
        else if (
          !options.provisioningHere.has(row.id) &&
          options.now().getTime() - Date.parse(row.updated_at) > options.staleProvisioningMs
        )
          options.provision(row.id);
      }
      for (const internId of supervisor.internIds()) if (!live.has(internId)) await stop(internId);
    },
  };
}
