import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../catalog/build-catalog.js';
import { EndpointHealth } from '../../routing/endpoint-health.js';
import { endpointKey } from '../../routing/plan-attempts.js';
import { providerRecords } from './provider-record.js';

const catalog = buildCatalog({ env: { GROQ_API_KEY: 'k', TOGETHER_API_KEY: 'k' }, knownKinds: ['openai'] });
const models = catalog.listModels();
const LLAMA = 'meta-llama/llama-3.3-70b-instruct';

describe('providerRecords', () => {
  it("lists the catalog's providers with the built-in table's facts, then BYOK-only slugs once", () => {
    const records = providerRecords(catalog.providers.values(), models, undefined, ['groq', 'anthropic', 'acme', 'acme']);
    expect(records.map((r) => r.slug)).toEqual(['groq', 'together', 'anthropic', 'acme']);
    expect(records[0]).toMatchObject({ name: 'Groq', headquarters: 'US', privacy_policy_url: expect.stringMatching(/^https:/) });
    expect(records[2]).toMatchObject({ name: 'Anthropic', health: { status: 'unknown', endpoints: 0 } });
    expect(records[3]).toEqual({
      name: 'acme',
      slug: 'acme',
      privacy_policy_url: null,
      terms_of_service_url: null,
      status_page_url: null,
      headquarters: null,
      datacenters: null,
      health: { status: 'unknown', endpoints: 0, failing_endpoints: 0, uptime_last_5m: null, uptime_last_30m: null, uptime_last_1d: null },
    });
  });

  it("reads each provider's health over its endpoints from the routing's statistics", () => {
    const health = new EndpointHealth(() => 1_000_000);
    health.recordSuccess(endpointKey(LLAMA, 'groq'));
    health.recordSuccess(endpointKey(LLAMA, 'groq'));
    health.recordSuccess(endpointKey(LLAMA, 'together'));
    health.recordFailure(endpointKey(LLAMA, 'together'));
    const byslug = Object.fromEntries(providerRecords(catalog.providers.values(), models, health).map((r) => [r.slug, r.health]));
    expect(byslug.groq).toMatchObject({ status: 'ok', failing_endpoints: 0, uptime_last_5m: 100 });
    expect(byslug.together).toMatchObject({ failing_endpoints: 1, uptime_last_30m: 50 });
    // One of together's several endpoints fails: degraded, not down.
    expect(byslug.together).toMatchObject({ status: 'degraded', endpoints: expect.any(Number) });
    expect(byslug.together?.endpoints).toBeGreaterThan(1);
  });
});
