import type { Workspace } from '../../store/repositories/workspaces.js';
import { nameUuid } from '../../util/name-uuid.js';

/**
 * A workspace in the reference's shape (Workspace): flags as booleans, the default guardrail's id derived from the
 * workspace's until one is kept; beyond it, `is_default` (the organization's default workspace, holding every member).
 */
export const toWorkspaceRecord = (w: Workspace) => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  is_default: w.is_default === 1,
  description: w.description,
  default_text_model: w.default_text_model,
  default_image_model: w.default_image_model,
  default_provider_sort: w.default_provider_sort,
  default_guardrail_id: w.default_guardrail_id ?? nameUuid(w.id, 'default-guardrail'),
  include_byok_in_budgets: w.include_byok_in_budgets === 1,
  io_logging_api_key_ids: w.io_logging_api_key_ids === null ? null : (JSON.parse(w.io_logging_api_key_ids) as number[]),
  io_logging_sampling_rate: w.io_logging_sampling_rate,
  is_data_discount_logging_enabled: w.is_data_discount_logging_enabled === 1,
  is_observability_broadcast_enabled: w.is_observability_broadcast_enabled === 1,
  is_observability_io_logging_enabled: w.is_observability_io_logging_enabled === 1,
  created_by: w.created_by,
  created_at: w.created_at,
  updated_at: w.updated_at,
});
