import type { FileReader } from '../../files/read-file-for-model.js';
import { Errors } from '../../http/errors.js';
import type { ChatMessage, ChatRequest, ContentPart } from '../../protocol/chat.js';
import { FILE_ID_PREFIX } from '../../util/ids.js';

/** The largest uploaded file a request carries to a model: as large as a file the file-parser fetches by URL. */
export const REFERENCED_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** A file id of this gateway's files API (a provider's own ids, `file-…`, go to that provider as they are). */
const isGatewayFileId = (id: string | undefined): id is string => id?.startsWith(FILE_ID_PREFIX) === true;

/** Whether a user message references an uploaded file by id. */
export const referencesUploadedFiles = (request: ChatRequest): boolean =>
  request.messages.some(
    (m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((p) => p.type === 'file' && isGatewayFileId(p.file.file_id)),
  );

export interface ReferencedFile {
  field: string;
  file_id: string;
  filename: string;
  mime_type: string;
  size_bytes: number;
}

/**
 * The request with each file part that names an uploaded file by id
 * (`file_id`, of the workspace's files) carrying the file instead, as a
 * data URL with its name: the file-parser and the providers' adapters then
 * take it as any inline file. A file the workspace does not have is a 404
 * naming the part; one too large to send, a 400.
 */
export async function resolveFileReferences(
  request: ChatRequest,
  workspaceId: string,
  read: FileReader,
): Promise<{ request: ChatRequest; files: ReferencedFile[] }> {
  const files: ReferencedFile[] = [];
  const messages: ChatMessage[] = [];
  for (const [m, message] of request.messages.entries()) {
    if (message.role !== 'user' || typeof message.content === 'string') {
      messages.push(message);
      continue;
    }
    const content: ContentPart[] = [];
    for (const [p, part] of message.content.entries()) {
      const id = part.type === 'file' ? part.file.file_id : undefined;
      if (part.type !== 'file' || !isGatewayFileId(id)) {
        content.push(part);
        continue;
      }
      const field = `messages[${m}].content[${p}].file.file_id`;
      const lookup = await read(workspaceId, id, REFERENCED_FILE_MAX_BYTES);
      if (!lookup) throw Errors.notFound(`${field}: file ${id.slice(0, 128)}`);
      if ('tooLarge' in lookup)
        throw Errors.fileUnreadable(
          field,
          `names a file of ${lookup.tooLarge} bytes, more than the ${REFERENCED_FILE_MAX_BYTES} a request to a model carries`,
        );
      const { filename, mimeType, bytes } = lookup.found;
      files.push({ field, file_id: id, filename, mime_type: mimeType, size_bytes: bytes.length });
      content.push({
        type: 'file',
        file: { filename: part.file.filename ?? filename, file_data: `data:${mimeType};base64,${bytes.toString('base64')}` },
      });
    }
    messages.push({ ...message, content });
  }
  return { request: files.length > 0 ? { ...request, messages } : request, files };
}
