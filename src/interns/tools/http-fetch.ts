import { SafeFetchError, type SafeFetcher } from '../../net/safe-fetch.js';
import { matchesDomainRule } from '../../plugins/shared/domain-rules.js';
import { type InternTool, stringArg, ToolError } from './intern-tool.js';

export const HTTP_FETCH_LIMITS = { maxBytes: 1024 * 1024, timeoutMs: 20_000, maxResultChars: 20_000 } as const;

/** Why an intern may not fetch a URL, or undefined: only hosts of its allowlist (none when it is empty). */
export function internDomainRefusal(url: URL, allowed: readonly string[]): string | undefined {
  if (allowed.some((rule) => matchesDomainRule(url, rule))) return undefined;
  return allowed.length === 0
    ? `this intern may not fetch any domain (its allowed_domains is empty)`
    : `${url.hostname} is not in this intern's allowed domains (${allowed.join(', ')})`;
}

/**
 * GET or POST a URL of the intern's allowed domains through the SSRF-safe
 * fetcher (private addresses refused after DNS and on every redirect, the
 * allowlist judged on redirects too), within size and time limits. Headers
 * may carry vault secrets (`{{secret:NAME}}`).
 */
export function httpFetchTool(
  fetcher: SafeFetcher,
  allowedDomains: readonly string[],
  limits: { maxBytes: number; timeoutMs: number; maxResultChars: number } = HTTP_FETCH_LIMITS,
): InternTool {
  return {
    needsApproval: false,
    definition: {
      type: 'function',
      function: {
        name: 'http_fetch',
        description:
          "Fetch a URL (GET, or POST with a body) and read the answer. Headers may use {{secret:NAME}} for the intern's vault secrets.",
        parameters: {
          type: 'object',
          properties: {
            url: { type: 'string', description: 'http(s) URL on an allowed domain' },
            method: { type: 'string', enum: ['GET', 'POST'] },
            headers: { type: 'object', additionalProperties: { type: 'string' } },
            body: { type: 'string' },
          },
          required: ['url'],
        },
      },
    },
    destination: (args) => urlOrUndefined(args.url),
    async run(args, signal) {
      const url = stringArg(args, 'url', true);
      const method = stringArg(args, 'method') ?? 'GET';
      if (method !== 'GET' && method !== 'POST') throw new ToolError('argument "method" must be GET or POST');
      const headers = stringRecord(args.headers);
      const body = stringArg(args, 'body');
      try {
        const answer = await fetcher.fetch(url, {
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
          timeoutMs: limits.timeoutMs,
          maxBytes: limits.maxBytes,
          checkUrl: (target) => internDomainRefusal(target, allowedDomains),
          signal,
        });
        const text = answer.body.toString('utf8');
        const shown =
          text.length > limits.maxResultChars
            ? `${text.slice(0, limits.maxResultChars)}\n[cut at ${limits.maxResultChars} characters]`
            : text;
        return `HTTP ${answer.status} from ${answer.url}${answer.truncated ? ` (body cut at ${limits.maxBytes} bytes)` : ''}\n\n${shown}`;
      } catch (error) {
        if (error instanceof SafeFetchError) throw new ToolError(`fetch refused or failed (${error.failure}): ${error.message}`);
        throw error;
      }
    },
  };
}

function stringRecord(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string'))
    throw new ToolError('argument "headers" must be an object of strings');
  return value as Record<string, string>;
}

function urlOrUndefined(value: unknown): URL | undefined {
  try {
    return typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    return undefined;
  }
}
