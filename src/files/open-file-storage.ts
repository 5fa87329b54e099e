import type { Kysely } from 'kysely';
import { s3Client } from '../net/s3-client.js';
import type { Database } from '../store/schema.js';
import type { FileSettings } from './file-settings.js';
import type { FilesService } from './files-service.js';
import { databaseStorage } from './storage/database-storage.js';
import { directoryStorage } from './storage/directory-storage.js';
import type { FileStorage } from './storage/file-storage.js';
import { s3Storage } from './storage/s3-storage.js';

/** The storage FILES_STORAGE names: FILES_DIR, the gateway's database, or the bucket of FILES_S3_*. */
export function openFileStorage(settings: Pick<FileSettings, 'storage' | 'directory' | 's3'>, db: Kysely<Database>): FileStorage {
  switch (settings.storage) {
    case 'database':
      return databaseStorage(db);
    case 's3':
      if (!settings.s3) throw new Error('the s3 file storage needs FILES_S3_BUCKET');
      return s3Storage(s3Client(settings.s3), settings.s3.bucket, settings.s3.prefix);
    case 'directory':
      return directoryStorage(settings.directory);
  }
}

/** The files API as the settings have it. */
export const filesService = (settings: FileSettings, db: Kysely<Database>): FilesService => ({
  storage: openFileStorage(settings, db),
  maxBytes: settings.maxBytes,
  workspaceQuotaBytes: settings.workspaceQuotaBytes,
});
