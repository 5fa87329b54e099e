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

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
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
  workspace_id: string;
}

/** The reference's Workspace, as far as the console shows it. */
export interface Workspace {
  id: string;
  name: string;
  slug: string;
  /** The organization's default workspace (a gateway extension): it holds every member and is never deleted. */
  is_default: boolean;
  description: string | null;
  default_text_model: string | null;
  default_image_model: string | null;
  default_provider_sort: string | null;
  created_at: string;
}

/** A member of the organization (GET /organization/members). */
export interface Member {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  role: string;
}

export const memberName = (m: Member) => [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email || m.id;

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
  error: { code: number | null; name?: string | null; message: string | null } | null;
  routing: { attempts?: Attempt[]; pipeline?: PipelineEntry[]; strategy?: string; planned?: { model: string; provider: string }[] } | null;
}

/** Keys a page of GET /keys holds (KEYS_PAGE_SIZE on the server): a full page may have another after it. */
export const KEYS_PAGE = 100;

/** The largest page GET /workspaces and GET /organization/members give. */
const LIST_PAGE = 100;

/** Every item of a list that answers `{data, total_count}` to `limit` and `offset`, page after page. */
export async function allPages<T>(path: string, params: Record<string, string> = {}): Promise<T[]> {
  const items: T[] = [];
  for (;;) {
    const { data, total_count } = await api<{ data: T[]; total_count: number }>(
      'GET',
      `${path}${query({ ...params, limit: LIST_PAGE, offset: items.length })}`,
    );
    items.push(...data);
    if (data.length === 0 || items.length >= total_count) return items;
  }
}

/** Every workspace the session's key may see. The gateway lists the default workspace first, then by creation. */
export const allWorkspaces = () => allPages<Workspace>('/workspaces');

/** Every member of the organization. */
export const allMembers = () => allPages<Member>('/organization/members');

/** One workspace's keys, disabled ones too, page after page. */
async function workspaceKeys(workspaceId: string): Promise<KeyRecord[]> {
  const keys: KeyRecord[] = [];
  for (;;) {
    const { data } = await api<{ data: KeyRecord[] }>(
      'GET',
      `/keys${query({ include_disabled: true, offset: keys.length, workspace_id: workspaceId })}`,
    );
    keys.push(...data);
    if (data.length < KEYS_PAGE) return keys;
  }
}

/** Every key of the organization, of every workspace, disabled ones too: the names that label the charts and filters. */
export async function allKeys(): Promise<KeyRecord[]> {
  const workspaces = await allWorkspaces();
  return (await Promise.all(workspaces.map((w) => workspaceKeys(w.id)))).flat();
}
