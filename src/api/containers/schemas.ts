import { Type } from 'typebox';
import { PageLimit, StringEnum } from '../../http/schema-helpers.js';

const Id = Type.String({ minLength: 1, maxLength: 128 });

/** The workspace a request reads or changes: the key's own unless a management key names another. */
const Scope = { workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) };

export const ScopeQuery = Type.Object(Scope);
export const ContainerParams = Type.Object({ container_id: Id });
export const ContainerFileParams = Type.Object({ container_id: Id, file_id: Id });

/** OpenAI's list paging: `limit` (1–100), `after` (the last id of the previous page) and `order`. */
export const ListQuery = Type.Object({
  ...Scope,
  limit: Type.Optional(PageLimit(100)),
  after: Type.Optional(Id),
  order: Type.Optional(StringEnum(['asc', 'desc'])),
});

/** POST /containers: OpenAI's `name`; its `file_ids` and `expires_after` are not taken (a container here lasts 30 idle days). */
export const CreateContainerBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) },
  { additionalProperties: false },
);

/** What a page holds when `limit` is not given (OpenAI's default). */
export const CONTAINERS_PAGE_SIZE = 20;
