import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/** A string enum as JSON Schema `enum`, so validation messages list the allowed values. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** A string enum that also accepts JSON null. */
export const NullableStringEnum = <const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number] | null> => Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null], ...options });

/**
 * A schema that also accepts JSON null. Written as a type array rather than
 * anyOf, so that a non-null value that breaks a rule (a minimum, a format) is
 * reported by that rule instead of as "matches no branch".
 */
export const Nullable = <T extends TSchema>(schema: T): TUnsafe<Static<T> | null> => {
  const plain = schema as unknown as Record<string, unknown>;
  if (typeof plain.type !== 'string') throw new Error('Nullable() needs a schema with a single type');
  return Type.Unsafe<Static<T> | null>({ ...plain, type: [plain.type, 'null'] });
};

/**
 * The `offset` of a paged list: records to skip. The maximum keeps a query
 * string such as "1e309", which coerces to Infinity, from reaching SQL.
 */
export const PageOffset = Nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }));

/** The envelope of the spec's 7.1, for response documentation. */
export const ErrorEnvelope = Type.Object({
  error: Type.Object({
    code: Type.Integer(),
    message: Type.String(),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
});
