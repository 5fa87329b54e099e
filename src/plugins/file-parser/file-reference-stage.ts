import type { FileReader } from '../../files/read-file-for-model.js';
import type { ChatRequest } from '../../protocol/chat.js';
import type { RequestStage } from '../request-stage.js';
import { referencesUploadedFiles, resolveFileReferences } from './resolve-file-references.js';

/**
 * Uploaded files named by id in a request's file parts, read from the key's
 * workspace before the file-parser (which then parses a PDF among them as
 * any inline PDF). It runs whether or not the file-parser does: a provider
 * never sees an id of this gateway's files.
 */
export function fileReferenceStage(read: FileReader): RequestStage<ChatRequest> {
  return {
    name: 'files',
    applies: ({ run }) => referencesUploadedFiles(run.request),
    async run({ run }) {
      const resolved = await resolveFileReferences(run.request, run.key.workspace_id, read);
      const count = resolved.files.length;
      return {
        entries: [
          {
            type: 'plugin',
            name: 'files',
            summary: `${count} uploaded file${count === 1 ? '' : 's'} read`,
            data: { files: resolved.files },
          },
        ],
        run: { ...run, request: resolved.request },
      };
    },
  };
}
