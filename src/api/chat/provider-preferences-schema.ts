import { Type } from 'typebox';
import { Nullable, NullableStringEnum, StringEnum } from '../../http/schema-helpers.js';
import { QUANTIZATIONS } from '../../protocol/routing-vocabulary.js';
import { TypeUnion } from './union-schemas.js';

export const SORT_KEYS = ['price', 'throughput', 'latency', 'exacto'] as const;

/** Provider slugs: the reference lists known names but accepts any string. */
export const ProviderSlugs = Nullable(Type.Array(Type.String()));

/** USD. The reference types prices as decimal strings; its docs' examples send numbers. */
const Price = TypeUnion([Type.String({ pattern: '^\\d+(\\.\\d+)?$' }), Type.Number({ minimum: 0 })]);

/** A plain number applies to p50; the object sets cut-offs per percentile. */
const PercentileCutoffs = TypeUnion([
  Type.Number(),
  Type.Object({
    p50: Type.Optional(Nullable(Type.Number())),
    p75: Type.Optional(Nullable(Type.Number())),
    p90: Type.Optional(Nullable(Type.Number())),
    p99: Type.Optional(Nullable(Type.Number())),
  }),
  Type.Null(),
]);

export const ProviderSort = TypeUnion([
  StringEnum(SORT_KEYS),
  Type.Object({
    by: Type.Optional(NullableStringEnum(SORT_KEYS)),
    partition: Type.Optional(NullableStringEnum(['model', 'none'])),
  }),
  Type.Null(),
]);

/** The reference's ProviderPreferences; unlike the rest of the body, unknown keys are refused. */
export const ProviderPreferences = Nullable(
  Type.Object(
    {
      allow_fallbacks: Type.Optional(Nullable(Type.Boolean())),
      require_parameters: Type.Optional(Nullable(Type.Boolean())),
      data_collection: Type.Optional(NullableStringEnum(['deny', 'allow'])),
      zdr: Type.Optional(Nullable(Type.Boolean())),
      enforce_distillable_text: Type.Optional(Nullable(Type.Boolean())),
      order: Type.Optional(ProviderSlugs),
      only: Type.Optional(ProviderSlugs),
      ignore: Type.Optional(ProviderSlugs),
      quantizations: Type.Optional(Nullable(Type.Array(StringEnum(QUANTIZATIONS)))),
      sort: Type.Optional(ProviderSort),
      max_price: Type.Optional(
        Type.Object({
          prompt: Type.Optional(Price),
          completion: Type.Optional(Price),
          image: Type.Optional(Price),
          audio: Type.Optional(Price),
          request: Type.Optional(Price),
        }),
      ),
      preferred_min_throughput: Type.Optional(PercentileCutoffs),
      preferred_max_latency: Type.Optional(PercentileCutoffs),
    },
    { additionalProperties: false },
  ),
);
