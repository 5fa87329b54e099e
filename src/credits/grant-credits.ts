import type { Kysely } from 'kysely';
import { Errors } from '../http/errors.js';
import { organizationReach, type Reach } from '../store/reach.js';
import { type CreditGrantRow, insertCreditGrant, totalCredits } from '../store/repositories/credit-grants.js';
import { workspaceSpend } from '../store/repositories/generations.js';
import { findOrganization } from '../store/repositories/organizations.js';
import { organizationUsage } from '../store/repositories/usage-hourly.js';
import type { Database } from '../store/schema.js';
import { newUuid } from '../util/ids.js';
import { roundUsd } from '../util/round-usd.js';

export interface GrantRequest {
  organizationId: string;
  /** USD; negative to correct an earlier grant. */
  amountUsd: number;
  note: string | null;
  /** 'cli', or 'key:<hash>' for the management key that granted. */
  grantedBy: string;
}

/** An organization's credits as GET /credits gives them: granted in all, and spent in all. */
export interface CreditTotals {
  total_credits: number;
  total_usage: number;
}

/**
 * GET /credits: what was granted (0 when nothing was: no balance is checked then) and what the organization spent in all;
 * for a key scoped to a workspace, the organization's credits (what the workspace draws on) and what that workspace spent.
 */
export async function creditTotals(db: Kysely<Database>, reach: Reach): Promise<CreditTotals> {
  const { organizationId, workspaceId } = reach;
  const usage = workspaceId === null ? organizationUsage(db, organizationId) : workspaceSpend(db, organizationId, workspaceId);
  const [credits, spent] = await Promise.all([totalCredits(db, organizationId), usage]);
  return { total_credits: roundUsd(credits ?? 0), total_usage: roundUsd(spent) };
}

/**
 * Grants credits to an organization: a new entry of its grants ledger, never
 * an update. A negative amount corrects an earlier grant, and may not take
 * the total below zero. The caller tells running instances (CREDITS_TOPIC).
 */
export async function grantCredits(
  db: Kysely<Database>,
  request: GrantRequest,
  now: Date,
): Promise<{ grant: CreditGrantRow } & CreditTotals> {
  if (!(await findOrganization(db, request.organizationId))) throw Errors.notFound(`Organization ${request.organizationId}`);
  if (request.amountUsd === 0) throw Errors.invalidRequest('amount must not be 0');
  const before = (await totalCredits(db, request.organizationId)) ?? 0;
  if (before + request.amountUsd < 0) {
    throw Errors.invalidRequest(
      `amount ${request.amountUsd} would take the organization's total credits below 0: a correction takes back at most the $${roundUsd(before)} granted`,
    );
  }
  const grant = await insertCreditGrant(db, {
    id: newUuid(),
    organization_id: request.organizationId,
    amount_usd: request.amountUsd,
    note: request.note,
    granted_by: request.grantedBy,
    created_at: now.toISOString(),
  });
  return { grant, ...(await creditTotals(db, organizationReach(request.organizationId))) };
}
