import type { ByokCredentialRow } from '../store/repositories/byok-credentials.js';
import type { Envelope } from './envelope.js';

/** A BYOK credential as the request path holds it: who may use it, and its key (opened once, on first use). */
export interface CachedCredential {
  id: string;
  organizationId: string;
  /** Null: every workspace of the organization. */
  workspaceId: string | null;
  provider: string;
  sortOrder: number;
  isFallback: boolean;
  allowedKeyHashes: ReadonlySet<string> | null;
  allowedModels: ReadonlySet<string> | null;
  allowedUserIds: ReadonlySet<string> | null;
  apiKey(): string;
}

/** What the cache loads: the usable credentials and the organizations that forbid falling back to the gateway's own. */
export interface CredentialSnapshot {
  rows: readonly ByokCredentialRow[];
  noFallback: readonly string[];
}

/** The change-feed topic whose notices say that an organization's credentials changed (the id is the organization's). */
export const BYOK_TOPIC = 'byok-credentials';

const set = (json: string | null): ReadonlySet<string> | null => (json === null ? null : new Set(JSON.parse(json) as string[]));

/**
 * Every organization's usable BYOK credentials in memory, so that planning a
 * request reads no database and opens no envelope more than once per key: a
 * change notice (BYOK_TOPIC) reloads the whole set on every instance (they
 * change at an operator's pace, not a request's), and a reload at least every
 * `maxAgeMs` (the key cache's TTL, the key-revocation bound) is the backstop
 * for a lost notice. A reload that fails keeps what is known.
 */
export class CredentialCache {
  private byOrganization = new Map<string, CachedCredential[]>();
  private noFallback = new Set<string>();
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | undefined;
  /** A load asked for while one ran: that one may have read the rows before the change. */
  private again: Promise<void> | undefined;

  constructor(
    private readonly load: () => Promise<CredentialSnapshot>,
    private readonly box: Envelope,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
    private readonly maxAgeMs = 60_000,
  ) {}

  /**
   * Loads the credentials again: resolves once a load that started after this
   * call has ended. Calls while a load runs share one more load after it.
   */
  reload(): Promise<void> {
    if (this.loading) {
      this.again ??= this.loading.then(() => {
        this.again = undefined;
        return this.reload();
      });
      return this.again;
    }
    this.loading = this.load()
      .then((snapshot) => this.replace(snapshot))
      .catch(this.onError)
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  /** The organization's credentials for a provider (its own and its workspaces'); a stale set starts a reload in the background. */
  forProvider(organizationId: string, provider: string): readonly CachedCredential[] {
    if (this.now() - this.loadedAt > this.maxAgeMs) void this.reload();
    return (this.byOrganization.get(organizationId) ?? []).filter((c) => c.provider === provider);
  }

  /** One of the organization's usable credentials by id (a video job keeps the one it was submitted on); undefined once disabled or deleted. */
  byId(organizationId: string, id: string): CachedCredential | undefined {
    if (this.now() - this.loadedAt > this.maxAgeMs) void this.reload();
    return this.byOrganization.get(organizationId)?.find((c) => c.id === id);
  }

  /** Whether a failing credential of the organization may fall back to the gateway's own (the default). */
  fallsBack(organizationId: string): boolean {
    return !this.noFallback.has(organizationId);
  }

  private replace(snapshot: CredentialSnapshot): void {
    const next = new Map<string, CachedCredential[]>();
    for (const row of snapshot.rows) {
      const list = next.get(row.organization_id) ?? [];
      list.push(this.cached(row));
      next.set(row.organization_id, list);
    }
    for (const list of next.values()) list.sort((a, b) => a.sortOrder - b.sortOrder);
    this.byOrganization = next;
    this.noFallback = new Set(snapshot.noFallback);
    this.loadedAt = this.now();
  }

  private cached(row: ByokCredentialRow): CachedCredential {
    const { box } = this;
    let opened: string | undefined;
    return {
      id: row.id,
      organizationId: row.organization_id,
      workspaceId: row.workspace_id,
      provider: row.provider,
      sortOrder: row.sort_order,
      isFallback: row.is_fallback === 1,
      allowedKeyHashes: set(row.allowed_api_key_hashes),
      allowedModels: set(row.allowed_models),
      allowedUserIds: set(row.allowed_user_ids),
      apiKey() {
        opened ??= box.open({ sealedKey: row.sealed_key!, wrappedDataKey: row.wrapped_data_key!, masterKeyId: row.master_key_id! });
        return opened;
      },
    };
  }
}
