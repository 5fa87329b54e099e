import type { ByokCredentialRow } from '../../store/repositories/byok-credentials.js';

const list = (json: string | null): string[] | null => (json === null ? null : (JSON.parse(json) as string[]));

/** The reference's BYOKKey: everything about the credential but the key itself (its label shows its ends). */
export function toByokRecord(row: ByokCredentialRow) {
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    label: row.label,
    workspace_id: row.workspace_id,
    allowed_api_key_hashes: list(row.allowed_api_key_hashes),
    allowed_models: list(row.allowed_models),
    allowed_user_ids: list(row.allowed_user_ids),
    is_fallback: row.is_fallback === 1,
    sort_order: row.sort_order,
    disabled: row.disabled === 1,
    created_at: row.created_at,
  };
}
