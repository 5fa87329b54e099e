import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { envelope } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import type { GatewayError } from '../../protocol/gateway-error.js';
import { exposition } from './exposition.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { METRICS_PATH } from './metrics-route.js';
import { checkMetricsToken } from './metrics-token.js';

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9464 */
  url: string;
  close(): Promise<void>;
}

/**
 * GET /metrics on an address of its own (METRICS_LISTEN), for a network that reaches the gateway's
 * metrics but not its API, or the reverse. It serves nothing else; the token still applies when set.
 */
export async function startMetricsServer(
  metrics: GatewayMetrics,
  listen: { host: string; port: number },
  token: string | undefined,
): Promise<MetricsServer> {
  const refuse = (res: ServerResponse, error: GatewayError) => {
    res.writeHead(error.statusCode, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(envelope(error)));
  };
  const server: Server = createServer((req, res) => {
    const path = req.url?.split('?', 1)[0];
    if (req.method !== 'GET' || path !== METRICS_PATH) return refuse(res, Errors.routeNotFound(req.method ?? '', path ?? ''));
    if (token) {
      const check = checkMetricsToken(req.headers.authorization, token);
      if (check !== 'ok') return refuse(res, check === 'missing' ? Errors.missingAuthentication() : Errors.invalidMetricsToken());
    }
    exposition(metrics.registry).then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(body);
      },
      () => refuse(res, Errors.internal()),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const { address, port, family } = server.address() as AddressInfo;
  return {
    url: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
