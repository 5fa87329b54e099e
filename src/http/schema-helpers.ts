import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

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
 * string such as "1e20" or "1e309" (Infinity once coerced) from reaching SQL,
 * which cannot skip by a number that is not an exact 64-bit integer.
 */
export const PageOffset = Nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }));

/** The `limit` of a paged list: 1 to `max` records. */
export const PageLimit = (max: number) => Type.Integer({ minimum: 1, maximum: max });

/**
 * The query string of a list endpoint: `offset` and `limit` (1 to
 * `maxLimit`), bounded here once for every list. A list with filters of its
 * own spreads `.properties` into its object.
 */
export const PageQuery = (maxLimit: number) =>
  Type.Object({ offset: Type.Optional(PageOffset), limit: Type.Optional(PageLimit(maxLimit)) });

/** The envelope of the spec's 7.1, for response documentation. */
export const ErrorEnvelope = Type.Object({
  error: Type.Object({
    code: Type.Integer(),
    message: Type.String(),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
});
