import { describe, expect, it } from 'vitest';
import { maskConfig, maskSecret, mergeConfig, parseConfig } from './destination-config.js';
import { typeProblem } from './destination-types.js';

describe('destination config', () => {
  it('completes a type’s defaults and refuses fields by name', () => {
    expect(parseConfig('webhook', { url: 'https://hooks.example/x/' })).toEqual({
      config: { url: 'https://hooks.example/x', method: 'POST', headers: {} },
    });
    expect(parseConfig('webhook', { url: 'file:///etc/passwd' })).toEqual({ problem: 'config.url must be an http(s) URL' });
    expect(parseConfig('webhook', { url: 'https://u:p@hooks.example' })).toEqual({ problem: 'config.url must be an http(s) URL' });
    expect(parseConfig('webhook', { url: 'https://a.example', method: 'GET' })).toEqual({ problem: 'config.method must be POST or PUT' });
    expect(parseConfig('webhook', { url: 'https://a.example', headers: { 'x-a': 'b\r\nx: y' } })).toEqual({
      problem: 'config.headers.x-a must be a string on one line',
    });
    expect(parseConfig('langfuse', { publicKey: 'pk', secretKey: 'sk' })).toMatchObject({
      config: { baseUrl: 'https://us.cloud.langfuse.com' },
    });
    expect(parseConfig('otel-collector', {})).toEqual({ problem: 'config.endpoint is required for a otel-collector destination' });
    // The reference's defaults for the SaaS types; their API keys are required secrets.
    expect(parseConfig('langsmith', { apiKey: 'lsv2_x' })).toEqual({
      config: { endpoint: 'https://api.smith.langchain.com', project: 'main', headers: {}, apiKey: 'lsv2_x' },
    });
    expect(parseConfig('posthog', { apiKey: 'phc_x' })).toEqual({
      config: { endpoint: 'https://us.i.posthog.com', headers: {}, apiKey: 'phc_x' },
    });
    expect(parseConfig('datadog', { apiKey: 'k', mlApp: 'app', url: 'https://api.datadoghq.eu/' })).toEqual({
      config: { url: 'https://api.datadoghq.eu', headers: {}, apiKey: 'k', mlApp: 'app' },
    });
    expect(parseConfig('posthog', {})).toEqual({ problem: 'config.apiKey is required for a posthog destination' });
    expect(maskConfig('datadog', { url: 'https://x', apiKey: '0123456789abcdef', mlApp: 'app', headers: {} })).toMatchObject({
      apiKey: '0123...cdef',
      mlApp: 'app',
    });
  });

  it('masks every secret and keeps a stored one sent back masked', () => {
    const stored = {
      baseUrl: 'https://lf.example',
      publicKey: 'pk-lf-1234567890',
      secretKey: 'sk-lf-abcdefghij',
      headers: { 'x-key': 'short' },
    };
    expect(maskConfig('langfuse', stored)).toEqual({
      baseUrl: 'https://lf.example',
      publicKey: 'pk-l...7890',
      secretKey: 'sk-l...ghij',
      headers: { 'x-key': '********' },
    });
    expect(maskSecret('abcdefghijkl')).toBe('abcd...ijkl');
    const merged = mergeConfig('langfuse', stored, {
      secretKey: 'sk-l...ghij',
      publicKey: 'pk-new-key',
      headers: { 'x-key': '********', 'x-new': 'v' },
    });
    expect(merged).toEqual({ ...stored, publicKey: 'pk-new-key', headers: { 'x-key': 'short', 'x-new': 'v' } });
  });

  it('names the supported types when refusing one of the reference’s others', () => {
    expect(typeProblem('webhook')).toBeUndefined();
    expect(typeProblem('arize')).toMatch(
      /^type arize is not supported by this gateway; supported types: webhook, otel-collector, langfuse, s3, langsmith, posthog, datadog/,
    );
    expect(typeProblem('pigeon')).toMatch(/^type must be one of arize, braintrust/);
  });
});
