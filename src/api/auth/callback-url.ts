import { Errors } from '../../http/errors.js';

const ALLOWED_PORTS = new Set(['', '443', '3000']);

/** The spec's rule for PKCE callbacks: https only, on port 443 or 3000. */
export function checkCallbackUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw Errors.invalidRequest('callback_url must be a valid absolute URL');
  }
  if (url.protocol !== 'https:' || !ALLOWED_PORTS.has(url.port)) {
    throw Errors.invalidRequest('callback_url must be an https URL on port 443 or 3000');
  }
  return url;
}
