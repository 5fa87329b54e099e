// The floor under any gateway written in Node: a proxy that does only what one must do per request.
import { createServer } from 'node:http';
import { Pool } from 'undici';

/**
 * `bare-proxy.ts <upstream origin> <port>`: takes a chat request, sends its
 * body to the upstream over a keep-alive pool, parses the answer (a gateway
 * must read its usage) and returns it. No validation, no routing, no ledger:
 * what is left of a request's cost once those are gone, measured on the
 * gateway's core, so that the gateway's figures can be read against it.
 */
const [upstream, port] = process.argv.slice(2);
if (!upstream || !port) throw new Error('usage: bare-proxy.ts <upstream origin> <port>');
const pool = new Pool(upstream, { connections: 128 });

createServer((req, res) => {
  if (req.method === 'GET') return void res.end('ready');
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    pool
      .request({
        path: '/v1/chat/completions',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
        body: Buffer.concat(chunks),
      })
      .then(async ({ statusCode, body }) => {
        const answer = (await body.json()) as { usage?: unknown };
        if (answer.usage === undefined) throw new Error('upstream answered without usage');
        res.writeHead(statusCode, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      })
      .catch((error: unknown) => res.writeHead(502).end(String(error)));
  });
}).listen(Number(port), '127.0.0.1');
