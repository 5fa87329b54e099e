import type { CreditGrantRow } from '../../store/repositories/credit-grants.js';

/** A grant as the API and the command line show it. */
export const toGrantRecord = (grant: CreditGrantRow) => ({
  id: grant.id,
  organization_id: grant.organization_id,
  amount: grant.amount_usd,
  note: grant.note,
  granted_by: grant.granted_by,
  created_at: grant.created_at,
});
