import { Type } from 'typebox';
import { StringEnum } from '../../http/schema-helpers.js';
import { DiscriminatedUnion } from './union-schemas.js';

const Strings = Type.Array(Type.String());

/** web-fetch's settings, as a plugin's fields or a `service:web_fetch` tool's parameters. */
export const WEB_FETCH_FIELDS = {
  max_uses: Type.Optional(Type.Integer({ minimum: 1 })),
  max_content_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
  allowed_domains: Type.Optional(Strings),
  blocked_domains: Type.Optional(Strings),
};

/**
 * A `service:web_search` tool's parameters (the reference's WebSearchConfig):
 * the gateway runs each search with its search API, so `auto` and `exa` are
 * the engines it has.
 */
const WEB_SEARCH_TOOL_FIELDS = {
  engine: Type.Optional(StringEnum(['auto', 'exa'])),
  max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  max_uses: Type.Optional(Type.Integer({ minimum: 1 })),
  allowed_domains: Type.Optional(Strings),
  excluded_domains: Type.Optional(Strings),
};

/** The `tools` entries of the research server tools (reference shape, `service:` for `openrouter:`). */
export const WebSearchToolEntry = Type.Object({
  type: Type.Literal('service:web_search'),
  parameters: Type.Optional(Type.Object(WEB_SEARCH_TOOL_FIELDS)),
});
export const WebFetchToolEntry = Type.Object({
  type: Type.Literal('service:web_fetch'),
  parameters: Type.Optional(Type.Object(WEB_FETCH_FIELDS)),
});

/** What fusion's inner calls may use: search and fetch, never another fusion. */
export const ResearchToolEntry = DiscriminatedUnion('type', [WebSearchToolEntry, WebFetchToolEntry]);

/** The files a code_interpreter's new container starts with, at most. */
const MAX_CONTAINER_FILE_IDS = 20;

/** The workspace's files (the files API's ids) copied into a code_interpreter's new container. */
export const ContainerFileIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: MAX_CONTAINER_FILE_IDS });

/**
 * A `service:code_interpreter` tool's parameters: `container`, "auto" (a new container for the request, the default) or the id of
 * one of the workspace's, and `file_ids`, the workspace's files a new container starts with.
 */
export const CodeInterpreterToolEntry = Type.Object({
  type: Type.Literal('service:code_interpreter'),
  parameters: Type.Optional(
    Type.Object({ container: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), file_ids: Type.Optional(ContainerFileIds) }),
  ),
});
