import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomSlice } from '../../util/ids.js';
import type { FileStorage } from './file-storage.js';

/** An id as a file name: the gateway's own ids only, so no id can name a path outside the directory. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

function nameOf(id: string): string {
  if (!SAFE_ID.test(id)) throw new Error(`not a storable file id: ${JSON.stringify(id.slice(0, 140))}`);
  return id;
}

/**
 * Files as files of one directory (FILES_DIR). A file is written under a
 * temporary name and renamed when whole, so that a reader never sees a part.
 */
export function directoryStorage(directory: string): FileStorage {
  let made: Promise<unknown> | undefined;
  const ready = () => {
    made ??= mkdir(directory, { recursive: true });
    return made;
  };
  return {
    kind: 'directory',
    async write(id, body) {
      await ready();
      const path = join(directory, nameOf(id));
      const partial = `${path}.${randomSlice(6).toString('hex')}.part`;
      let bytes = 0;
      try {
        await pipeline(
          body,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              bytes += chunk.length;
              yield chunk;
            }
          },
          createWriteStream(partial, { flags: 'wx' }),
        );
        await rename(partial, path);
        return bytes;
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    read: (id): Readable => createReadStream(join(directory, nameOf(id))),
    async remove(id) {
      await rm(join(directory, nameOf(id)), { force: true });
    },
  };
}
