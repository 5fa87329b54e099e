import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { parseGatewayConfig } from './load-gateway-config.js';

const rules = { knownKinds: ['openai'] };
const parse = (text: string, env: NodeJS.ProcessEnv = {}) => parseGatewayConfig(text, 'gateway.yaml', rules, env);

const VALID = `providers:
  - id: acme
    kind: openai
    base_url: http://127.0.0.1:9000/v1
    api_key: \${ACME_API_KEY}
models:
  - id: acme/fast-1
    endpoints:
      - provider: acme
        upstream_model: fast-1
        pricing: { prompt: 0.000001, completion: 0.000002 }
`;

describe('parseGatewayConfig', () => {
  it('reads the documented shape and fills ${VAR} from the environment', () => {
    const config = parse(VALID, { ACME_API_KEY: 'sk-acme' });
    expect(config.providers?.[0]).toMatchObject({ id: 'acme', kind: 'openai', api_key: 'sk-acme' });
    expect(config.models?.[0]?.endpoints[0]?.pricing).toEqual({ prompt: 0.000001, completion: 0.000002 });
  });

  it('treats an empty file as an empty config', () => {
    expect(parse('')).toEqual({});
  });

  const failures: [string, string, string][] = [
    ['an unset variable', VALID, 'gateway.yaml:5:14: providers[0].api_key refers to ${ACME_API_KEY}, which is not set in the environment'],
    [
      'a kind no adapter speaks',
      VALID.replace('kind: openai', 'kind: carrier-pigeon'),
      'gateway.yaml:3:11: providers[0].kind "carrier-pigeon" is not a provider kind this gateway speaks (known: openai)',
    ],
    [
      'an unknown key',
      VALID.replace('    kind: openai', '    kind: openai\n    colour: blue'),
      'gateway.yaml:4:13: providers[0] has an unknown property "colour"',
    ],
    [
      'a missing price',
      VALID.replace('        pricing: { prompt: 0.000001, completion: 0.000002 }\n', ''),
      'gateway.yaml:9:9: models[0].endpoints[0].pricing is required',
    ],
    [
      'a negative price',
      VALID.replace('prompt: 0.000001', 'prompt: -1'),
      'gateway.yaml:11:28: models[0].endpoints[0].pricing.prompt must be >= 0',
    ],
    [
      'an undeclared provider',
      VALID.replace('      - provider: acme', '      - provider: nobody'),
      'gateway.yaml:9:19: models[0].endpoints[0].provider "nobody" is not a provider declared under providers',
    ],
    [
      'a bad base URL',
      VALID.replace('http://127.0.0.1:9000/v1', 'ftp://x'),
      'gateway.yaml:4:15: providers[0].base_url must match the pattern ^https?://',
    ],
    [
      'a score above 1',
      VALID.replace('    endpoints:', '    scores: { coding: 1.5 }\n    endpoints:'),
      'gateway.yaml:8:23: models[0].scores.coding must be <= 1',
    ],
    [
      'an unknown task type',
      VALID.replace('    endpoints:', '    scores: { poetry: 0.5 }\n    endpoints:'),
      'gateway.yaml:8:23: models[0].scores has an unknown property "poetry"',
    ],
    [
      'an unknown service tier',
      VALID.replace('        pricing:', '        supported_service_tiers: [turbo]\n        pricing:'),
      'models[0].endpoints[0].supported_service_tiers[0] must be one of',
    ],
    [
      'an unknown quantization',
      VALID.replace('        pricing:', '        quantization: fp7\n        pricing:'),
      'models[0].endpoints[0].quantization must be one of',
    ],
    ['broken YAML', 'providers: [\n  - id', 'gateway.yaml:2:'],
    ['a duplicate key', 'providers: []\nproviders: []\n', 'gateway.yaml:2:1:'],
  ];
  it.each(failures)('refuses %s, naming the file, line and key', (_, text, message) => {
    const env = text === VALID ? {} : { ACME_API_KEY: 'k' };
    expect(() => parse(text, env)).toThrow(ConfigError);
    expect(() => parse(text, env)).toThrow(message);
  });

  it('reads the network and web_search settings', () => {
    const text = `${VALID}network:\n  allow_private_ranges: [10.0.0.0/8, "fd00::/8"]\nweb_search:\n  exa:\n    api_key: \${EXA_API_KEY}\n`;
    expect(parse(text, { ACME_API_KEY: 'k', EXA_API_KEY: 'exa-key' })).toMatchObject({
      network: { allow_private_ranges: ['10.0.0.0/8', 'fd00::/8'] },
      web_search: { exa: { api_key: 'exa-key' } },
    });
  });

  it('refuses a private range that is not CIDR, naming it', () => {
    const text = `${VALID}network:\n  allow_private_ranges:\n    - 10.0.0.0/8\n    - 10.0.0.1\n`;
    expect(() => parse(text, { ACME_API_KEY: 'k' })).toThrow(
      'gateway.yaml:15:7: network.allow_private_ranges[1] "10.0.0.1" is not a CIDR range (e.g. 10.0.0.0/8)',
    );
  });

  it('refuses a provider declared twice', () => {
    const text = VALID.replace('models:', '  - id: acme\n    kind: openai\n    base_url: http://x/v1\nmodels:');
    expect(() => parse(text, { ACME_API_KEY: 'k' })).toThrow('gateway.yaml:6:9: providers[1].id "acme" is declared twice');
  });
});
