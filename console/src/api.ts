/** The gateway's API, called with the session cookie the browser holds; changes carry the session's CSRF token. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onSignedOut: () => void = () => undefined;

export function holdSession(token: string | null, signedOut: () => void): void {
  csrfToken = token;
  onSignedOut = signedOut;
}

export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (response.status === 204) return undefined as T;
  const data = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!response.ok) {
    // The session ended (idle, signed out elsewhere, its key disabled): back to sign-in.
    if (response.status === 401 && !path.startsWith('/console/session')) onSignedOut();
    throw new ApiError(response.status, data?.error?.message ?? `The gateway answered ${response.status}`);
  }
  return data as T;
}

/** A query string of the defined values. */
export function query(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export interface Session {
  csrf_token: string;
  expires_at: string;
  organization_id: string;
  key: { hash: string; name: string; label: string };
}

export interface KeyRecord {
  hash: string;
  name: string;
  label: string;
  disabled: boolean;
  limit: number | null;
  limit_remaining: number | null;
  limit_reset: string | null;
  usage: number;
  usage_daily: number;
  usage_monthly: number;
  expires_at: string | null;
  created_at: string;
}

export interface Attempt {
  model: string;
  provider: string;
  status: 'success' | 'failed';
  error?: { status?: number; failure: string; message: string };
  latency_ms: number;
}

export interface PipelineEntry {
  type: string;
  name: string;
  summary?: string;
  data?: Record<string, unknown>;
}

export interface Generation {
  id: string;
  api_key_hash?: string;
  created_at: string;
  model: string;
  provider_name: string | null;
  status: string;
  streamed: boolean;
  total_cost: number;
  tokens_prompt: number;
  tokens_completion: number;
  native_tokens_reasoning: number;
  native_tokens_cached: number;
  latency: number | null;
  time_to_first_token: number | null;
  generation_time: number | null;
  finish_reason: string | null;
  usage_estimated: boolean;
  error: { code: number | null; message: string | null } | null;
  routing: { attempts?: Attempt[]; pipeline?: PipelineEntry[]; strategy?: string; planned?: { model: string; provider: string }[] } | null;
}

/** Keys a page of GET /keys holds (KEYS_PAGE_SIZE on the server): a full page may have another after it. */
export const KEYS_PAGE = 100;

/** Every key of the organization, disabled ones too, page after page: the names that label the charts and filters. */
export async function allKeys(): Promise<KeyRecord[]> {
  const keys: KeyRecord[] = [];
  for (;;) {
    const { data } = await api<{ data: KeyRecord[] }>('GET', `/keys?include_disabled=true&offset=${keys.length}`);
    keys.push(...data);
    if (data.length < KEYS_PAGE) return keys;
  }
}
