import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { FileStorage } from './file-storage.js';

/** The most one chunk row holds: large enough that a file is few rows, small enough that a row is never a burden. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * Files as rows of `file_chunks` in the gateway's database (SQLite or
 * PostgreSQL): what instances that share the database share without a
 * shared disk. A file is written a chunk at a time, each an insert of its
 * own, and read back a chunk at a time.
 */
export function databaseStorage(db: Kysely<Database>): FileStorage {
  const remove = async (id: string) => {
    await db.deleteFrom('file_chunks').where('file_id', '=', id).execute();
  };
  return {
    kind: 'database',
    async write(id, body) {
      let seq = 0;
      let bytes = 0;
      let held: Buffer[] = [];
      let heldBytes = 0;
      const flush = async () => {
        const data = Buffer.concat(held, heldBytes);
        held = [];
        heldBytes = 0;
        await db.insertInto('file_chunks').values({ file_id: id, seq: seq++, data }).execute();
      };
      try {
        for await (const chunk of body) {
          bytes += chunk.length;
          for (let at = 0; at < chunk.length; ) {
            const take = Math.min(CHUNK_BYTES - heldBytes, chunk.length - at);
            held.push(chunk.subarray(at, at + take));
            heldBytes += take;
            at += take;
            if (heldBytes === CHUNK_BYTES) await flush();
          }
        }
        if (heldBytes > 0) await flush();
        return bytes;
      } catch (error) {
        await remove(id);
        throw error;
      }
    },
    read(id) {
      return Readable.from(
        (async function* () {
          for (let seq = 0; ; seq++) {
            const row = await db
              .selectFrom('file_chunks')
              .select('data')
              .where('file_id', '=', id)
              .where('seq', '=', seq)
              .executeTakeFirst();
            if (!row) {
              if (seq === 0) throw new Error(`no file is kept under ${id}`);
              return;
            }
            yield Buffer.from(row.data);
          }
        })(),
        { objectMode: false },
      );
    },
    remove,
  };
}
