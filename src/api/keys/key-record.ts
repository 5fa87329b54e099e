import { currentUsage, limitRemaining } from '../../accounts/usage-periods.js';
import type { ApiKeyRow } from '../../store/repositories/api-keys.js';

/** Usage, limit and remaining limit of a key as they stand at `now`. */
function spend(row: ApiKeyRow, now: Date) {
  const usage = currentUsage(row, now);
  return {
    limit: row.limit_usd,
    limit_remaining: limitRemaining(row.limit_usd, row.limit_reset, row.include_byok_in_limit === 1, usage),
    limit_reset: row.limit_reset,
    include_byok_in_limit: row.include_byok_in_limit === 1,
    ...usage,
  };
}

/** The API key record of the spec's 2.5 (and the reference's key object). */
export function toKeyRecord(row: ApiKeyRow, now: Date) {
  return {
    hash: row.hash,
    name: row.name,
    label: row.label,
    disabled: row.disabled === 1,
    ...spend(row, now),
    created_at: row.created_at,
    updated_at: row.updated_at,
    expires_at: row.expires_at,
    creator_user_id: row.creator_user_id,
    external_user: row.external_user,
    workspace_id: row.workspace_id,
  };
}

/** The calling key's own record (`GET /key`), in the reference's shape. */
export function toCurrentKeyRecord(row: ApiKeyRow, now: Date) {
  return {
    label: row.label,
    ...spend(row, now),
    is_free_tier: false,
    is_management_key: row.is_management === 1,
    is_provisioning_key: row.is_management === 1,
    creator_user_id: row.creator_user_id,
    expires_at: row.expires_at,
    organization_id: row.organization_id,
    workspace_id: row.workspace_id,
    // A self-hosted gateway serves from wherever it runs.
    allowed_data_regions: ['global'],
    // No free-model quota applies here; -1 is the reference's "no limit" convention.
    free_model_daily_requests: { limit: -1, remaining: -1, used: 0 },
    // Deprecated in the reference ("will always return -1"); kept so clients that read it still parse.
    rate_limit: { requests: -1, interval: '10s', note: 'This field is deprecated and safe to ignore.' },
  };
}
