import type { S3Location } from '../net/s3-client.js';
import type { StorageKind } from './storage/file-storage.js';

/** Where uploaded files are kept and how much a workspace may keep (docs/files.md, "Settings"). */
export interface FileSettings {
  /** FILES_STORAGE: `directory` (one instance, or a shared disk), `database` (instances that share the database) or `s3`. */
  storage: StorageKind;
  /** FILES_DIR: the directory of the `directory` storage. */
  directory: string;
  /** FILES_S3_*: the bucket of the `s3` storage (only when FILES_STORAGE is s3). */
  s3?: S3Location;
  /** FILES_MAX_BYTES: the largest file an upload takes. */
  maxBytes: number;
  /** FILES_WORKSPACE_QUOTA_BYTES: what a workspace's files may hold together. */
  workspaceQuotaBytes: number;
}

export const FILE_DEFAULTS: FileSettings = {
  storage: 'directory',
  directory: './data/files',
  maxBytes: 512 * 1024 * 1024,
  workspaceQuotaBytes: 10 * 1024 ** 3,
};
