import { Type } from 'typebox';

const Name = Type.String({ minLength: 1, maxLength: 1024 });
const FilterValue = Type.Union([Name, Type.Number()]);

/**
 * POST /analytics/query's body as the reference writes it (types and
 * bounds); analytics/plan-query.ts checks the names and what they mean.
 */
export const AnalyticsQueryBody = Type.Object(
  {
    metrics: Type.Array(Name, { minItems: 1, maxItems: 20 }),
    dimensions: Type.Optional(Type.Array(Name, { maxItems: 2 })),
    filters: Type.Optional(
      Type.Array(
        Type.Object(
          {
            field: Name,
            operator: Name,
            value: Type.Union([FilterValue, Type.Array(FilterValue)]),
            include_unset: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
    granularity: Type.Optional(Name),
    group_limit: Type.Optional(Type.Integer({ minimum: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
    order_by: Type.Optional(Type.Object({ field: Name, direction: Name }, { additionalProperties: false })),
    time_range: Type.Optional(
      Type.Object(
        { start: Type.String({ format: 'date-time' }), end: Type.String({ format: 'date-time' }) },
        { additionalProperties: false },
      ),
    ),
    classifier_dimensions: Type.Optional(Type.Unknown()),
    classifier_filters: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
