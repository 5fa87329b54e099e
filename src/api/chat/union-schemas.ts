import { type Static, type TObject, type TSchema, type TUnsafe, Type } from 'typebox';

/*
 * Unions written as if/then chains rather than anyOf/oneOf. The shared body
 * Ajv has no `discriminator` keyword, and a failed anyOf is reported as "does
 * not match any allowed shape". With if/then only the branch the value selects
 * is checked, so the first error names the field and the rule that failed
 * (`messages[0].tool_call_id is required`). `if` schemas never report errors.
 */

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

function jsonTypeOf(schema: TSchema): JsonType {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') throw new Error('TypeUnion() needs schemas with a single type each');
  return type as JsonType;
}

/**
 * A value of one of several JSON types, each with its own rules, e.g. a string
 * or an array of at most 4 strings. A value of another type fails with
 * `must be of type string or array`.
 */
export function TypeUnion<const T extends TSchema[]>(schemas: T): TUnsafe<Static<T[number]>> {
  const types = schemas.map(jsonTypeOf);
  if (new Set(types).size !== types.length) throw new Error(`TypeUnion() needs distinct types, got ${types.join(', ')}`);
  return Type.Unsafe<Static<T[number]>>({
    type: types,
    allOf: schemas.map((schema, i) => ({ if: { type: types[i] }, then: schema })),
  });
}

function discriminatorValue(variant: TObject, key: string): string {
  const value = (variant.properties[key] as { const?: unknown } | undefined)?.const;
  if (typeof value !== 'string') throw new Error(`DiscriminatedUnion() variant lacks a literal "${key}"`);
  return value;
}

/**
 * Objects told apart by a literal property (`role`, `type`, `id`). The key is
 * checked against the list of known values, so an unknown one fails with
 * `plugins[0].id must be one of "auto-router", …`; a known one is checked
 * against its own variant only. Worth it with a single variant too: Ajv checks
 * `required` before `properties`, so a plain object of the wrong kind would be
 * reported as missing some field rather than as being of the wrong kind.
 */
export function DiscriminatedUnion<const T extends TObject[]>(key: string, variants: T): TUnsafe<Static<T[number]>> {
  const values = variants.map((variant) => discriminatorValue(variant, key));
  return Type.Unsafe<Static<T[number]>>({
    type: 'object',
    required: [key],
    properties: { [key]: { type: 'string', enum: values } },
    allOf: variants.map((variant, i) => ({
      if: { required: [key], properties: { [key]: { const: values[i] } } },
      then: variant,
    })),
  });
}
