import { Type } from 'typebox';
import { PageLimit, StringEnum } from '../../http/schema-helpers.js';

/** The purposes OpenAI's files.create sends; a file here serves every purpose alike. */
export const FILE_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;
export const DEFAULT_PURPOSE = 'user_data';

const FileId = Type.String({ minLength: 1, maxLength: 128 });
const Id = Type.String({ minLength: 1, maxLength: 128 });

/** The query every files operation takes: the workspace (the caller's own unless named), and `provider`, which storage on a provider would need. */
const Scope = {
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  provider: Type.Optional(Type.String({ maxLength: 100 })),
};

export const ScopeQuery = Type.Object(Scope);
export const FileParams = Type.Object({ file_id: FileId });

/** GET /files: the reference's paging (`limit` 1–1000, an opaque `cursor`, or OpenAI's `after` / Anthropic's `after_id`) and `order`. */
export const ListFilesQuery = Type.Object({
  ...Scope,
  limit: Type.Optional(PageLimit(1000)),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  after: Type.Optional(Id),
  after_id: Type.Optional(Id),
  before_id: Type.Optional(Id),
  order: Type.Optional(StringEnum(['asc', 'desc'])),
});

/** What a page holds when `limit` is not given (the reference's example). */
export const FILES_PAGE_SIZE = 100;
