import type { Kysely } from 'kysely';
import { currentUsage, spentInWindow } from '../accounts/usage-periods.js';
import { findApiKeyByHash, memberKeys } from '../store/repositories/api-keys.js';
import { runningJobReservations } from '../store/repositories/video-jobs.js';
import type { Database } from '../store/schema.js';
import type { LoadAccount } from './reservation-store.js';

/**
 * An account as the database has it: the spend counters of its keys (the
 * key, or every key of the member) in the account's window, and the holds of
 * their running video jobs. Read when an account is first needed and now and
 * then after, never per request. `unwritten` is the spend charged and not yet
 * in the database (the ledger outbox's, while the database was away), per
 * key: it counts as if it were.
 */
export function databaseAccounts(db: Kysely<Database>, unwritten?: () => ReadonlyMap<string, number>): LoadAccount {
  return async (account, now) => {
    // Taken before the database is read: a row written back in between is counted twice at worst, never missed.
    const pending = unwritten?.();
    const { scope } = account;
    const keys =
      'keyHash' in scope
        ? [await findApiKeyByHash(db, scope.keyHash)].filter((row) => row !== undefined)
        : await memberKeys(db, scope.organizationId, scope.member.userId, scope.member.workspaceId);
    const committed = keys.reduce((sum, row) => sum + spentInWindow(account.window, account.includeByok, currentUsage(row, now)) + (pending?.get(row.hash) ?? 0), 0);
    const jobs = await runningJobReservations(
      db,
      keys.map((row) => row.hash),
    );
    return { committed, holds: jobs.map((job) => ({ id: job.id, amount: job.reserved_usd, expiresAt: Date.parse(job.reserved_until), stored: true })) };
  };
}
