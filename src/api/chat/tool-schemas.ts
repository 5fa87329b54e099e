import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schema-helpers.js';
import { CacheControl } from './content-schemas.js';
import { FUSION_FIELDS } from './plugin-schemas.js';
import { CodeInterpreterToolEntry, WebFetchToolEntry, WebSearchToolEntry } from './server-tool-schemas.js';
import { DiscriminatedUnion, TypeUnion } from './union-schemas.js';

/** A JSON Schema object, passed through to the provider as written. */
export const JsonSchemaObject = Type.Record(Type.String(), Type.Unknown());

/**
 * An item of `tools`: a client function, or a server tool the gateway runs
 * (`service:web_search`, `service:web_fetch`, `service:fusion`, `service:code_interpreter`).
 */
export const Tool = DiscriminatedUnion('type', [
  Type.Object({
    type: Type.Literal('function'),
    function: Type.Object({
      name: Type.String({ maxLength: 64 }),
      description: Type.Optional(Type.String()),
      parameters: Type.Optional(JsonSchemaObject),
      strict: Type.Optional(Nullable(Type.Boolean())),
    }),
    cache_control: Type.Optional(CacheControl),
  }),
  WebSearchToolEntry,
  WebFetchToolEntry,
  Type.Object({ type: Type.Literal('service:fusion'), parameters: Type.Optional(Type.Object(FUSION_FIELDS)) }),
  CodeInterpreterToolEntry,
]);

const NamedToolChoice = DiscriminatedUnion('type', [
  Type.Object({
    type: Type.Literal('function'),
    function: Type.Object({ name: Type.String() }),
  }),
]);

/** "none", "auto", "required", or one named function. */
export const ToolChoice = TypeUnion([StringEnum(['none', 'auto', 'required']), NamedToolChoice]);
