import { readFileSync } from 'node:fs';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { type Document, isNode, LineCounter, parseDocument } from 'yaml';
import { formatValidationErrors } from '../http/validation.js';
import { invalidRanges } from '../net/address-policy.js';
import { ConfigError } from './config-error.js';
import { type GatewayConfig, GatewayConfigSchema } from './gateway-config-schema.js';

type Path = (string | number)[];

const ajv = new Ajv.default({ allErrors: false, strict: false });
addFormats.default(ajv);
const validateConfig = ajv.compile<GatewayConfig>(GatewayConfigSchema);

const pathText = (path: Path) => path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');

function locate(doc: Document, lines: LineCounter, path: Path): string {
  // The deepest node that exists: a missing key is reported at its parent.
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) {
      const { line, col } = lines.linePos(node.range[0]);
      return `${line}:${col}`;
    }
  }
  return '1:1';
}

const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `${VAR}` in any string reads the environment; an unset variable is an error at its line. */
function interpolate(value: unknown, env: NodeJS.ProcessEnv, path: Path, fail: (path: Path, message: string) => never): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REFERENCE, (_, name: string) => {
      const v = env[name];
      if (v === undefined) fail(path, `refers to \${${name}}, which is not set in the environment`);
      return v as string;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, env, [...path, i], fail));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env, [...path, k], fail)]));
  }
  return value;
}

function instancePathOf(error: ErrorObject): Path {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  if (error.keyword === 'additionalProperties') {
    segments.push((error.params as { additionalProperty: string }).additionalProperty);
  }
  return segments;
}

export interface ConfigRules {
  /** Provider kinds that an adapter speaks. */
  knownKinds: readonly string[];
}

/** Parses and validates a config file's text; the whole file is valid or nothing is used. */
export function parseGatewayConfig(text: string, source: string, rules: ConfigRules, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const pos = yamlError.linePos?.[0];
    throw new ConfigError(`${source}:${pos ? `${pos.line}:${pos.col}` : '1:1'}: ${yamlError.message.split('\n')[0]}`);
  }
  const fail = (path: Path, message: string): never => {
    throw new ConfigError(`${source}:${locate(doc, lines, path)}: ${pathText(path) || '(top level)'} ${message}`);
  };

  const raw = (doc.toJS() ?? {}) as unknown;
  const config = interpolate(raw, env, [], fail);
  if (!validateConfig(config)) {
    const errors = validateConfig.errors ?? [];
    const first = errors.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf') ?? errors[0];
    if (first) {
      const where = locate(doc, lines, instancePathOf(first));
      throw new ConfigError(`${source}:${where}: ${formatValidationErrors(errors, 'config')}`);
    }
  }
  const valid = config as GatewayConfig;

  const providerIds = new Set<string>();
  valid.providers?.forEach((provider, i) => {
    if (providerIds.has(provider.id)) fail(['providers', i, 'id'], `"${provider.id}" is declared twice`);
    providerIds.add(provider.id);
    if (!rules.knownKinds.includes(provider.kind)) {
      fail(
        ['providers', i, 'kind'],
        `"${provider.kind}" is not a provider kind this gateway speaks (known: ${rules.knownKinds.join(', ') || 'none yet'})`,
      );
    }
  });
  const modelIds = new Set<string>();
  valid.models?.forEach((model, i) => {
    if (modelIds.has(model.id)) fail(['models', i, 'id'], `"${model.id}" is declared twice`);
    modelIds.add(model.id);
    model.endpoints.forEach((endpoint, j) => {
      if (!providerIds.has(endpoint.provider)) {
        fail(['models', i, 'endpoints', j, 'provider'], `"${endpoint.provider}" is not a provider declared under providers`);
      }
    });
  });
  const ranges = valid.network?.allow_private_ranges ?? [];
  const badRange = ranges.findIndex((range) => invalidRanges([range]).length > 0);
  if (badRange >= 0) fail(['network', 'allow_private_ranges', badRange], `"${ranges[badRange]}" is not a CIDR range (e.g. 10.0.0.0/8)`);
  return valid;
}

export function loadGatewayConfig(path: string, rules: ConfigRules, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${path}: cannot read the config file (${(error as Error).message})`);
  }
  return parseGatewayConfig(text, path, rules, env);
}
