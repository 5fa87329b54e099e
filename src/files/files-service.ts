import type { FileStorage } from './storage/file-storage.js';

/** The files API's storage and bounds, built once (cli/start-gateway.ts from FileSettings; app.ts's default otherwise). */
export interface FilesService {
  storage: FileStorage;
  /** FILES_MAX_BYTES. */
  maxBytes: number;
  /** FILES_WORKSPACE_QUOTA_BYTES. */
  workspaceQuotaBytes: number;
}
