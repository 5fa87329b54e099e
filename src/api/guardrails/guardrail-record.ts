import { BUILTIN_LABELS } from '../../guardrails/builtin-detectors.js';
import type { GuardrailRules } from '../../guardrails/guardrail-rules.js';
import type { GuardrailAssignmentRow, GuardrailRow } from '../../store/repositories/guardrails.js';

export const rulesOf = (row: GuardrailRow) => JSON.parse(row.rules) as GuardrailRules;

/** The reference's Guardrail: its rules, with each builtin filter's system-assigned label. */
export function toGuardrailRecord(row: GuardrailRow) {
  const rules = rulesOf(row);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    workspace_id: row.workspace_id,
    limit_usd: row.limit_usd,
    reset_interval: row.reset_interval,
    include_byok_in_budgets: row.include_byok_in_budgets === 1,
    ...rules,
    content_filter_builtins:
      rules.content_filter_builtins?.map(({ slug, action, scan_scope }) => ({
        slug,
        action,
        label: BUILTIN_LABELS[slug],
        ...(scan_scope !== undefined ? { scan_scope } : {}),
      })) ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The shape common to the reference's KeyAssignment and MemberAssignment. */
export const assignmentBase = (row: GuardrailAssignmentRow) => ({
  id: row.id,
  guardrail_id: row.guardrail_id,
  assigned_by: row.assigned_by,
  created_at: row.created_at,
});
