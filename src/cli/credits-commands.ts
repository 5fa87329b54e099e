import { InvalidArgumentError } from 'commander';
import { toGrantRecord } from '../api/credits/grant-record.js';
import { GrantCreditsBody } from '../api/credits/schemas.js';
import { CREDITS_TOPIC } from '../credits/credits-cache.js';
import { type CreditTotals, creditTotals, grantCredits } from '../credits/grant-credits.js';
import { organizationReach } from '../store/reach.js';
import { findOrganization } from '../store/repositories/organizations.js';
import { announce } from './announce.js';
import { checkAsApi, jsonOption } from './api-rules.js';
import type { KeyCommandContext } from './keys-commands.js';
import { formatFields, formatJson, usd } from './output.js';

// `model-gateway credits …`: an organization's credits, granted by the operator (the API's POST /credits/grants and GET /credits).

export interface GrantOptions {
  amount: string;
  org?: string;
  note?: string;
  json: boolean;
}

const totalsFields = (totals: CreditTotals) => ({
  total_credits: usd(totals.total_credits),
  total_usage: usd(totals.total_usage),
  balance: usd(totals.total_credits - totals.total_usage),
});

/**
 * Grants credits to an organization (the default one unless --org), checked
 * with the API's schema and rules, and tells running servers (Redis or
 * PostgreSQL NOTIFY; on SQLite alone they see it within a minute).
 */
export async function grantCreditsCommand(
  { store, organizationId, redisUrl, now }: KeyCommandContext,
  options: GrantOptions,
): Promise<string> {
  const body = checkAsApi(
    GrantCreditsBody,
    {
      amount: jsonOption(options.amount),
      ...(options.note !== undefined ? { note: options.note } : {}),
      ...(options.org !== undefined ? { organization_id: options.org } : {}),
    },
    'body',
  );
  const target = body.organization_id ?? organizationId;
  const { grant, ...totals } = await grantCredits(
    store.db,
    { organizationId: target, amountUsd: body.amount, note: body.note ?? null, grantedBy: 'cli' },
    now,
  );
  await announce(store, redisUrl, CREDITS_TOPIC, target);
  if (options.json) return formatJson({ data: toGrantRecord(grant) });
  return formatFields({ ...toGrantRecord(grant), ...totalsFields(totals) });
}

/** An organization's credits as GET /credits gives them, and what is left. */
export async function showCreditsCommand(
  { store, organizationId }: KeyCommandContext,
  options: { org?: string; json: boolean },
): Promise<string> {
  const target = options.org ?? organizationId;
  if (!(await findOrganization(store.db, target))) throw new InvalidArgumentError(`--org ${target} is not an organization`);
  const totals = await creditTotals(store.db, organizationReach(target));
  return options.json ? formatJson({ data: totals }) : formatFields({ organization_id: target, ...totalsFields(totals) });
}
