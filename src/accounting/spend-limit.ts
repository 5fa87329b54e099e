import type { Kysely } from 'kysely';
import { currentUsage, limitRemaining } from '../accounts/usage-periods.js';
import { Errors } from '../http/errors.js';
import { findApiKeyByHash, type ApiKeyRow } from '../store/repositories/api-keys.js';
import type { Database } from '../store/schema.js';

/**
 * Refuses with 402 before any upstream call when the key's limit is spent,
 * or is less than `expectedCost` (USD a request will cost, when known
 * beforehand, as a video job's is). Keys without a limit cost nothing here;
 * keys with one read their counters fresh, so concurrent requests can
 * overspend by at most what is in flight.
 */
export async function assertWithinSpendLimit(db: Kysely<Database>, key: ApiKeyRow, now: Date, expectedCost = 0): Promise<void> {
  if (key.limit_usd === null) return;
  const fresh = (await findApiKeyByHash(db, key.hash)) ?? key;
  if (fresh.limit_usd === null) return;
  const remaining = limitRemaining(fresh.limit_usd, fresh.limit_reset, fresh.include_byok_in_limit === 1, currentUsage(fresh, now));
  if (remaining !== null && remaining <= 0) throw Errors.spendLimitReached(fresh.limit_usd, fresh.limit_reset);
  if (remaining !== null && remaining < expectedCost) throw Errors.spendLimitTooLow(expectedCost, remaining);
}
