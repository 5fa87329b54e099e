import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors.js';

/** Where `npm run build` writes the console (scripts/build-console.mjs): dist/console, from src/ and dist/ alike. */
export const CONSOLE_DIR = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

/**
 * The page may run only its own bundled script and style, reach only this gateway, and be framed by no one:
 * an injected script or a stray inline handler does not run.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HASHED = /-[A-Z0-9]{8,}\.(js|css)$/;

/**
 * The headers of every page of the gateway's origin a browser shows (the console, and /docs beside it): a page
 * of this origin holds a session cookie's power, so none may be framed, sniffed into a script, or run another's.
 */
export async function pageSecurityHeaders(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  void reply.headers({
    'content-security-policy': CONSOLE_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  });
}

/** The web console at /console: the files built into dist/console, with a strict Content-Security-Policy. */
export async function serveConsole(app: FastifyInstance, root = CONSOLE_DIR): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onSend', pageSecurityHeaders);
    if (!existsSync(root)) {
      // A checkout that was never built: say so rather than a bare 404.
      scope.get('/console', { schema: { hide: true } }, async () => {
        throw Errors.notFound('The console (it is built by npm run build)');
      });
      return;
    }
    // The page's relative asset paths need the trailing slash.
    scope.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 301));
    await scope.register(fastifyStatic, {
      root,
      prefix: '/console/',
      index: 'index.html',
      cacheControl: false,
      // Bundles are named by their content: cached for good. The page itself is checked every time, so a new build shows at once.
      setHeaders: (res, path) => {
        res.setHeader('cache-control', HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  });
}
