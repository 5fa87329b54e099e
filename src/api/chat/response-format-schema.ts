import { Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.js';
import { JsonSchemaObject } from './tool-schemas.js';
import { DiscriminatedUnion } from './union-schemas.js';

const JsonSchemaFormat = Type.Object({
  type: Type.Literal('json_schema'),
  json_schema: Type.Object({
    name: Type.String({ maxLength: 64 }),
    description: Type.Optional(Type.String()),
    schema: Type.Optional(JsonSchemaObject),
    strict: Type.Optional(Nullable(Type.Boolean())),
  }),
});

/** The output format, told apart by `type`. */
export const ResponseFormat = DiscriminatedUnion('type', [
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('json_object') }),
  JsonSchemaFormat,
  Type.Object({ type: Type.Literal('grammar'), grammar: Type.String() }),
  Type.Object({ type: Type.Literal('python') }),
]);
