import { describe, expect, it } from 'vitest';
import { readObservabilitySettings, tracesUrl } from './observability-settings.js';

describe('readObservabilitySettings', () => {
  it('defaults to /metrics on the API, without a token, the access log on for every request, no traces', () => {
    expect(readObservabilitySettings({})).toEqual({
      metricsToken: undefined,
      metricsListen: undefined,
      accessLog: true,
      accessLogSample: 1,
      tracesUrl: undefined,
      serviceName: undefined,
    });
  });

  it('reads each setting', () => {
    const settings = readObservabilitySettings({
      METRICS_TOKEN: ' tok ',
      METRICS_LISTEN: '0.0.0.0:9464',
      ACCESS_LOG: 'off',
      ACCESS_LOG_SAMPLE: '0.1',
      OTEL_SERVICE_NAME: 'gw',
    });
    expect(settings).toMatchObject({
      metricsToken: 'tok',
      metricsListen: { host: '0.0.0.0', port: 9464 },
      accessLog: false,
      accessLogSample: 0.1,
      serviceName: 'gw',
    });
    expect(readObservabilitySettings({ METRICS_LISTEN: '[::1]:9000' }).metricsListen).toEqual({ host: '::1', port: 9000 });
    expect(readObservabilitySettings({ METRICS_LISTEN: ':9000' }).metricsListen).toEqual({ host: '0.0.0.0', port: 9000 });
  });

  it('names the setting and the rule of a value it cannot use', () => {
    expect(() => readObservabilitySettings({ ACCESS_LOG: 'maybe' })).toThrow('ACCESS_LOG must be on or off (got "maybe")');
    expect(() => readObservabilitySettings({ ACCESS_LOG_SAMPLE: '2' })).toThrow('ACCESS_LOG_SAMPLE must be a number from 0 to 1 (got "2")');
    expect(() => readObservabilitySettings({ METRICS_LISTEN: 'localhost' })).toThrow('METRICS_LISTEN must be host:port');
    expect(() => readObservabilitySettings({ METRICS_LISTEN: 'a:70000' })).toThrow('METRICS_LISTEN must be host:port');
  });
});

describe('tracesUrl', () => {
  it('derives the traces URL from the OTLP endpoint, or takes the traces endpoint as it is', () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom' })).toBe(
      'http://b:4318/custom',
    );
  });

  it('keeps no traces when unconfigured, disabled, or sent to another exporter', () => {
    expect(tracesUrl({})).toBeUndefined();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('refuses gRPC, which it does not speak', () => {
    expect(() => tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow('OTLP/HTTP');
  });
});
