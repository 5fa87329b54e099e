import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../protocol/gateway-error.js';
import { DIMENSIONS, METRICS, OPERATORS } from './analytics-catalog.js';
import { ANALYTICS_LIMITS, type AnalyticsQueryRequest, planAnalyticsQuery } from './plan-query.js';

const now = new Date('2026-11-24T15:20:00.000Z');
const METRIC_NAMES = Object.keys(METRICS);
const DIMENSION_NAMES = Object.keys(DIMENSIONS);

/** The 400 a planning refuses with, or the plan. */
function outcome(request: AnalyticsQueryRequest): { plan: ReturnType<typeof planAnalyticsQuery> } | { refusal: GatewayError } {
  try {
    return { plan: planAnalyticsQuery(request, now) };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return { refusal: error };
  }
}

const refusal = (request: AnalyticsQueryRequest) => {
  const result = outcome(request);
  if (!('refusal' in result)) throw new Error(`planned: ${JSON.stringify(request)}`);
  return result.refusal;
};

describe('planAnalyticsQuery', () => {
  it('asks the rollups for the last 30 days up to the next whole hour by default, 1000 rows, most of the first metric first', () => {
    const { query, warnings } = planAnalyticsQuery({ metrics: ['total_usage', 'request_count'] }, now);
    expect(query).toMatchObject({ from: '2026-10-25T16', to: '2026-11-24T16', bucket: null, groupBy: [], filters: [], limit: 1000 });
    expect([...query.measures.keys()]).toEqual(['total_usage', 'request_count']);
    expect(query.order).toEqual([{ by: { measure: 'total_usage' }, descending: true }]);
    expect(warnings).toEqual([]);
  });

  it('orders a time series by time, then the first metric, then the dimensions, and lets it return up to 10,000 rows', () => {
    const { query } = planAnalyticsQuery({ metrics: ['request_count'], dimensions: ['provider', 'model'], granularity: 'hour' }, now);
    expect(query.order).toEqual([
      { by: 'bucket', descending: false },
      { by: { measure: 'request_count' }, descending: true },
      { by: 'provider_name', descending: false },
      { by: 'model', descending: false },
    ]);
    expect(query.limit).toBe(ANALYTICS_LIMITS.maxLimit);
    expect(query.groupBy).toEqual(['provider_name', 'model']);
  });

  it('measures request_count without returning it when only the order names it', () => {
    const plan = planAnalyticsQuery({ metrics: ['total_usage'], order_by: { field: 'request_count', direction: 'asc' } }, now);
    expect([...plan.query.measures.keys()]).toEqual(['total_usage', 'request_count']);
    expect(plan.metrics).toEqual(['total_usage']);
  });

  it('keeps rows no provider served out of a provider filter unless include_unset asks for them', () => {
    const filters = (filter: NonNullable<AnalyticsQueryRequest['filters']>[number]) =>
      planAnalyticsQuery({ metrics: ['request_count'], filters: [filter] }, now).query.filters;
    expect(filters({ field: 'provider', operator: 'neq', value: 'alpha' })).toEqual([
      { column: 'provider_name', values: ['alpha'], exclude: true },
      { column: 'provider_name', values: [''], exclude: true },
    ]);
    expect(filters({ field: 'provider', operator: 'not_in', value: ['alpha'], include_unset: true })).toEqual([
      { column: 'provider_name', values: ['alpha'], exclude: true },
    ]);
    expect(filters({ field: 'provider', operator: 'in', value: ['alpha'], include_unset: true })).toEqual([
      { column: 'provider_name', values: ['alpha', ''], exclude: false },
    ]);
    expect(filters({ field: 'model', operator: 'not_in', value: ['m'], include_unset: true })).toEqual([
      { column: 'model', values: ['m'], exclude: true },
    ]);
  });

  it('refuses a year and a day, a limit past 10,000 and a number where a name is wanted', () => {
    expect(
      refusal({ metrics: ['request_count'], time_range: { start: '2025-01-01T00:00:00Z', end: '2026-01-03T00:00:00Z' } }).message,
    ).toBe('time_range must span at most 366 days');
    expect(refusal({ metrics: ['request_count'], limit: 10_001 }).message).toBe('limit must be an integer from 1 to 10000');
    expect(refusal({ metrics: ['request_count'], filters: [{ field: 'api_key_id', operator: 'eq', value: 12 }] }).message).toBe(
      'filters[0].value must be a string: api_key_id values are names',
    );
  });

  // Properties.

  const someOf = (names: readonly string[], max: number) => fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: max });
  const dimensionFilter = fc
    .record({
      field: fc.constantFrom(...DIMENSION_NAMES),
      operator: fc.constantFrom(...Object.keys(OPERATORS)),
      include_unset: fc.option(fc.boolean(), { nil: undefined }),
      scalar: fc.string({ maxLength: 20 }),
      list: fc.array(fc.string({ maxLength: 20 }), { minLength: 1, maxLength: 5 }),
    })
    .map(({ field, operator, include_unset, scalar, list }) => ({
      field,
      operator,
      value: OPERATORS[operator as keyof typeof OPERATORS] === 'scalar' ? scalar : list,
      ...(include_unset === undefined ? {} : { include_unset }),
    }));
  const validRequest = fc.record(
    {
      metrics: someOf(METRIC_NAMES, METRIC_NAMES.length),
      dimensions: fc.uniqueArray(fc.constantFrom(...DIMENSION_NAMES), { maxLength: 2 }),
      granularity: fc.constantFrom('hour', 'day'),
      filters: fc.array(dimensionFilter, { maxLength: 4 }),
      limit: fc.integer({ min: 1, max: ANALYTICS_LIMITS.maxLimit }),
      group_limit: fc.integer({ min: 1, max: ANALYTICS_LIMITS.maxLimit }),
      time_range: fc
        .tuple(
          fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') }),
          fc.integer({ min: 1, max: ANALYTICS_LIMITS.maxDays * 86_400_000 }),
        )
        .map(([start, span]) => ({ start: new Date(start).toISOString(), end: new Date(start + span).toISOString() })),
    },
    { requiredKeys: ['metrics'] },
  );

  it('plans every query made of the names it offers, measuring each metric and grouping by each dimension asked', () => {
    fc.assert(
      fc.property(validRequest, (request) => {
        const { query, metrics, dimensions } = planAnalyticsQuery(request, now);
        expect(metrics).toEqual(request.metrics);
        expect(dimensions).toEqual(request.dimensions ?? []);
        for (const metric of request.metrics) expect(query.measures.get(metric)).toEqual(METRICS[metric as keyof typeof METRICS].measure);
        expect(query.groupBy).toEqual((request.dimensions ?? []).map((d) => DIMENSIONS[d as keyof typeof DIMENSIONS].column));
        expect(query.bucket).toBe(request.granularity ?? null);
        expect(query.from < query.to).toBe(true);
        if (request.time_range) {
          expect(`${query.from}:00:00.000Z` <= new Date(request.time_range.start).toISOString()).toBe(true);
          expect(`${query.to}:00:00.000Z` >= new Date(request.time_range.end).toISOString()).toBe(true);
        }
        expect(query.limit).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  it('refuses a metric or a dimension it does not record with a 400 naming the first one, by its index', () => {
    const unknownName = (known: readonly string[]) => fc.string({ maxLength: 30 }).filter((name) => !known.includes(name));
    fc.assert(
      fc.property(someOf(METRIC_NAMES, 4), fc.nat(), unknownName(METRIC_NAMES), (metrics, at, unknown) => {
        const i = at % (metrics.length + 1);
        const error = refusal({ metrics: [...metrics.slice(0, i), unknown, ...metrics.slice(i)] });
        expect(error.statusCode).toBe(400);
        expect(error.message.startsWith(`metrics[${i}] ${JSON.stringify(unknown)} is not a metric this gateway records`)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...DIMENSION_NAMES), { maxLength: 1 }),
        unknownName(DIMENSION_NAMES),
        fc.boolean(),
        (known, unknown, first) => {
          const dimensions = first ? [unknown, ...known] : [...known, unknown];
          const error = refusal({ metrics: ['request_count'], dimensions });
          expect(error.statusCode).toBe(400);
          expect(error.message.startsWith(`dimensions[${dimensions.indexOf(unknown)}] ${JSON.stringify(unknown)} is not a dimension`)).toBe(
            true,
          );
        },
      ),
    );
  });

  it('answers any body of the right types with a plan or a 400, never another error', () => {
    const anyValue = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.double(),
      fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.double()), { maxLength: 3 }),
    );
    const anyRequest = fc.record(
      {
        metrics: fc.array(fc.oneof(fc.constantFrom(...METRIC_NAMES), fc.string({ maxLength: 12 })), { maxLength: 4 }),
        dimensions: fc.array(fc.oneof(fc.constantFrom(...DIMENSION_NAMES), fc.string({ maxLength: 12 })), { maxLength: 3 }),
        filters: fc.array(
          fc.record({
            field: fc.oneof(fc.constantFrom(...DIMENSION_NAMES), fc.string()),
            operator: fc.oneof(fc.constantFrom('eq', 'neq', 'in', 'not_in', 'gt'), fc.string()),
            value: anyValue,
            include_unset: fc.boolean(),
          }),
          { maxLength: 3 },
        ),
        granularity: fc.oneof(fc.constantFrom('hour', 'day', 'week', 'minute'), fc.string()),
        limit: fc.integer({ min: -5, max: 20_000 }),
        group_limit: fc.integer({ min: -5, max: 20_000 }),
        order_by: fc.record({
          field: fc.oneof(fc.constantFrom('date', 'request_count', 'model', ...METRIC_NAMES), fc.string()),
          direction: fc.oneof(fc.constantFrom('asc', 'desc'), fc.string()),
        }),
        time_range: fc.record({
          start: fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            fc.string(),
          ),
          end: fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            fc.string(),
          ),
        }),
      },
      { requiredKeys: ['metrics'] },
    );
    fc.assert(
      fc.property(anyRequest, (request) => {
        const result = outcome(request);
        if ('refusal' in result) {
          expect(result.refusal.statusCode).toBe(400);
          expect(result.refusal.message).toMatch(/^(metrics|dimensions|filters\[\d+\]|granularity|limit|group_limit|order_by|time_range)/);
        } else {
          for (const metric of result.plan.metrics) expect(METRIC_NAMES).toContain(metric);
          for (const dimension of result.plan.dimensions) expect(DIMENSION_NAMES).toContain(dimension);
        }
      }),
    );
  });
});
