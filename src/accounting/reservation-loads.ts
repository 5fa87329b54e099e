import type { Kysely } from 'kysely';
import { currentUsage, spentInWindow } from '../accounts/usage-periods.js';
import { findApiKeyByHash, memberKeys, organizationKeyHashes } from '../store/repositories/api-keys.js';
import { organizationUsage } from '../store/repositories/usage-hourly.js';
import { runningJobReservations } from '../store/repositories/video-jobs.js';
import { findWorkspaceUsage, workspaceKeyHashes } from '../store/repositories/workspace-budgets.js';
import type { Database } from '../store/schema.js';
import type { SpendAccount } from './reservation-limits.js';
import type { LoadAccount, StoredAccount } from './reservation-store.js';

/**
 * An account as the database has it: the spend counters of its keys (the
 * key, or every key of the member) in the account's window, or all its
 * organization spent (organization_usage, deleted keys included), and the
 * holds of their running video jobs. Read when an account is first needed
 * and now and then after, never per request. `unwritten` is the spend
 * charged and not yet in the database (the ledger outbox's, while the
 * database was away), per key: it counts as if it were.
 */
export function databaseAccounts(db: Kysely<Database>, unwritten?: () => ReadonlyMap<string, number>): LoadAccount {
  return async (account, now) => {
    // Taken before the database is read: a row written back in between is counted twice at worst, never missed.
    const pending = unwritten?.();
    const { scope } = account;
    if ('credits' in scope) return organizationAccount(db, scope.organizationId, pending);
    if ('workspaceId' in scope) return workspaceAccount(db, scope.workspaceId, account, now, pending);
    const keys =
      'keyHash' in scope
        ? [await findApiKeyByHash(db, scope.keyHash)].filter((row) => row !== undefined)
        : await memberKeys(db, scope.organizationId, scope.member.userId, scope.member.workspaceId);
    const committed = keys.reduce(
      (sum, row) => sum + spentInWindow(account.window, account.includeByok, currentUsage(row, now)) + (pending?.get(row.hash) ?? 0),
      0,
    );
    const jobs = await runningJobReservations(db, { keyHashes: keys.map((row) => row.hash) });
    return { committed, holds: jobs.map(storedHold) };
  };
}

async function organizationAccount(
  db: Kysely<Database>,
  organizationId: string,
  pending: ReadonlyMap<string, number> | undefined,
): Promise<StoredAccount> {
  const [usage, jobs, hashes] = await Promise.all([
    organizationUsage(db, organizationId),
    runningJobReservations(db, { organizationId }),
    pending?.size ? organizationKeyHashes(db, organizationId) : [],
  ]);
  return { committed: hashes.reduce((sum, hash) => sum + (pending?.get(hash) ?? 0), usage), holds: jobs.map(storedHold) };
}

/**
 * A workspace's spend in the account's window (workspace_usage), the
 * unwritten spend of its keys, and the holds of the video jobs submitted in
 * it (the workspace a job was submitted in holds it, wherever its key is now).
 */
async function workspaceAccount(
  db: Kysely<Database>,
  workspaceId: string,
  account: SpendAccount,
  now: Date,
  pending: ReadonlyMap<string, number> | undefined,
): Promise<StoredAccount> {
  const [usage, jobs, hashes] = await Promise.all([
    findWorkspaceUsage(db, workspaceId),
    runningJobReservations(db, { workspaceId }),
    pending?.size ? workspaceKeyHashes(db, workspaceId) : [],
  ]);
  const spent = usage ? spentInWindow(account.window, account.includeByok, currentUsage(usage, now)) : 0;
  return { committed: hashes.reduce((sum, hash) => sum + (pending?.get(hash) ?? 0), spent), holds: jobs.map(storedHold) };
}

const storedHold = (job: { id: string; reserved_usd: number; reserved_until: string }) => ({
  id: job.id,
  amount: job.reserved_usd,
  expiresAt: Date.parse(job.reserved_until),
  stored: true,
});
