import type { DestinationRow } from '../store/repositories/observability-destinations.js';
import { type DestinationConfig, maskConfig } from './destination-config.js';
import { isSupportedType } from './destination-types.js';
import type { FilterRules } from './filter-rules.js';

/** Seals and opens configs: the vault's AES-256-GCM box (api/vault/secret-box.ts), passed in. */
export interface ConfigBox {
  seal(value: string): string;
  open(sealed: string): string;
}

/** A destination's config, unsealed: only the sender and a PATCH's merge see its secrets. */
export const openConfig = (box: ConfigBox, row: Pick<DestinationRow, 'config_sealed'>): DestinationConfig =>
  JSON.parse(box.open(row.config_sealed)) as DestinationConfig;

/** The reference's ObservabilityDestination: secrets in `config` masked. */
export function toDestinationRecord(box: ConfigBox, row: DestinationRow) {
  const config = openConfig(box, row);
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    type: row.type,
    name: row.name,
    config: isSupportedType(row.type) ? maskConfig(row.type, config) : {},
    enabled: row.enabled === 1,
    privacy_mode: row.privacy_mode === 1,
    sampling_rate: row.sampling_rate,
    api_key_hashes: row.api_key_hashes ? (JSON.parse(row.api_key_hashes) as string[]) : null,
    filter_rules: row.filter_rules ? (JSON.parse(row.filter_rules) as FilterRules) : null,
    broadcast_generation_cost: row.broadcast_generation_cost === 1,
    broadcast_generation_identity: row.broadcast_generation_identity === 1,
    broadcast_generation_request_context: row.broadcast_generation_request_context === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
