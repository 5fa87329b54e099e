import { Type, type TSchema, type TUnsafe } from 'typebox';

/** A string enum as JSON Schema `enum`, so validation messages list the allowed values. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** A string enum that also accepts JSON null. */
export const NullableStringEnum = <const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number] | null> => Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null], ...options });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The envelope of the spec's 7.1, for response documentation. */
export const ErrorEnvelope = Type.Object({
  error: Type.Object({
    code: Type.Integer(),
    message: Type.String(),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
});
