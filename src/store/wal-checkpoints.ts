import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Store } from './database.js';

/** What runs the checkpoints; stop() waits for the last one and closes its connection. */
export interface WalCheckpoints {
  stop(): Promise<void>;
}

export interface WalCheckpointOptions {
  /** How often the worker checkpoints. */
  intervalMs?: number;
  /** A checkpoint that failed (the next one tries again). */
  onError?: (message: string) => void;
}

/**
 * The worker's code, CommonJS run by `eval` so that it loads the same from
 * the built package and from the TypeScript sources under test. It opens its
 * own connection and copies the WAL into the database file on a timer; a
 * PASSIVE checkpoint never waits for, or blocks, the writer.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage(String(error && error.message || error));
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/** SQLite's own threshold is 1,000 pages; the store's connection checkpoints only past this many. */
const BACKSTOP_PAGES = 10_000;

/**
 * The WAL is copied into a SQLite store's database file by a worker thread
 * instead of by the commit that crosses SQLite's threshold, which otherwise
 * waits on the event loop for two fsyncs (4 ms each on the benchmark's
 * machine) every thousand pages. Under steady writes a background checkpoint
 * rarely finds the WAL at rest, so the WAL restarts from its start only when
 * the store's own connection checkpoints, past BACKSTOP_PAGES: by then the
 * worker has copied all but the last pages, and the stall comes ten times
 * less often. A PostgreSQL or in-memory store has no WAL file: nothing runs.
 */
export function checkpointInBackground(store: Pick<Store, 'sqlite'>, options: WalCheckpointOptions = {}): WalCheckpoints {
  const database = store.sqlite?.database;
  if (!database || database.memory) return { stop: async () => {} };
  database.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file: database.name,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      intervalMs: options.intervalMs ?? 200,
    },
  });
  worker.on('message', (message: string) => options.onError?.(message));
  worker.on('error', (error) => options.onError?.(error.message));
  worker.unref();
  // Stopped or dead, the worker no longer checkpoints: the store's connection goes back to SQLite's threshold.
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (database.open) database.pragma('wal_autocheckpoint = 1000');
      resolve();
    }),
  );
  return {
    async stop() {
      // Held until the last checkpoint is done: otherwise a process with nothing else left to do exits first.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
