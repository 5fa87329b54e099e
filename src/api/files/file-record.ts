import type { FileRow } from '../../store/repositories/files.js';

/**
 * A file as the API answers it: the reference's OpenRouterFile (`id`,
 * `filename`, `mime_type`, `size_bytes`, `created_at`, `downloadable`),
 * with the fields of OpenAI's file object that do not clash with it
 * (`object`, `bytes`, `purpose`, `status`), so that OpenAI's clients read it
 * too. `created_at` stays the reference's ISO 8601 string.
 */
export const toFileRecord = (row: FileRow) => ({
  _shape: 'openrouter' as const,
  id: row.id,
  type: 'file' as const,
  filename: row.filename,
  mime_type: row.mime_type,
  size_bytes: row.size_bytes,
  created_at: row.created_at,
  // Every file uploaded here can be downloaded again (GET /files/{file_id}/content).
  downloadable: true,
  object: 'file' as const,
  bytes: row.size_bytes,
  purpose: row.purpose,
  status: 'processed' as const,
});

/** A deletion's answer: the reference's OpenRouterFileDeleted, with OpenAI's `object` and `deleted`. */
export const toDeletedRecord = (id: string) => ({
  _shape: 'openrouter' as const,
  id,
  type: 'file_deleted' as const,
  object: 'file' as const,
  deleted: true as const,
});
