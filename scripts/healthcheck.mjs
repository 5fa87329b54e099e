// The container's health check (Dockerfile's HEALTHCHECK): exits 0 when the gateway in this container answers
// GET /health with 200, else 1. Node's own fetch, because the slim runtime image has no curl or wget.
const host = process.env.HOST && !['0.0.0.0', '::', ''].includes(process.env.HOST) ? process.env.HOST : '127.0.0.1';
const url = new URL(`http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT || 8080}/health`);

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  process.exit(response.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
