import type { Readable } from 'node:stream';

/** Where the files' bytes are kept: one directory, or the database or an S3-compatible bucket (for instances that share files). */
export type StorageKind = 'directory' | 'database' | 's3';
export const STORAGE_KINDS: readonly StorageKind[] = ['directory', 'database', 's3'];

/**
 * A file's bytes by its id, behind one interface for each storage. Bytes go
 * in and out as streams: no storage holds a whole file in memory.
 */
export interface FileStorage {
  readonly kind: StorageKind;
  /**
   * Keeps the bytes of `body` under `id`, read to its end; resolves to how
   * many there were. When `body` fails, nothing is left under `id` and the
   * promise rejects with its error.
   */
  write(id: string, body: AsyncIterable<Buffer>): Promise<number>;
  /** The bytes kept under `id`, from the first; the stream fails when there are none. */
  read(id: string): Readable;
  /** Forgets `id`; nothing happens when nothing is kept under it. */
  remove(id: string): Promise<void>;
}
