import type { Kysely } from 'kysely';
import { findFile } from '../store/repositories/files.js';
import type { Database } from '../store/schema.js';
import type { FileStorage } from './storage/file-storage.js';

/** An uploaded file's bytes, as a request to a model carries them. */
export interface FileForModel {
  filename: string;
  mimeType: string;
  bytes: Buffer;
}

/** What reading a referenced file found: the file, one too large to carry (its size), or nothing in the workspace. */
export type FileLookup = { found: FileForModel } | { tooLarge: number } | undefined;

/** Reads a workspace's uploaded files for requests to models. */
export type FileReader = (workspaceId: string, fileId: string, maxBytes: number) => Promise<FileLookup>;

/**
 * The reader over the files table and the storage: a file of another
 * workspace is as absent as a missing one, and one larger than `maxBytes`
 * is not read at all.
 */
export function fileReader(db: Kysely<Database>, storage: FileStorage): FileReader {
  return async (workspaceId, fileId, maxBytes) => {
    const row = await findFile(db, workspaceId, fileId);
    if (!row) return undefined;
    if (row.size_bytes > maxBytes) return { tooLarge: row.size_bytes };
    const chunks: Buffer[] = [];
    for await (const chunk of storage.read(row.id)) chunks.push(chunk as Buffer);
    return { found: { filename: row.filename, mimeType: row.mime_type, bytes: Buffer.concat(chunks) } };
  };
}
