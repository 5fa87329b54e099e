import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../accounts/api-key-material.js';
import { bootstrap } from '../accounts/bootstrap.js';
import { openStore } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { findApiKeyByHash } from '../store/repositories/api-keys.js';
import { recordGeneration } from './record-generation.js';
import { spendLimits } from './reservation-limits.js';
import { databaseAccounts } from './reservation-loads.js';

describe('databaseAccounts', () => {
  it('counts the spend not yet in the database (the ledger outbox’s) as if it were: a limit holds while rows wait', async () => {
    const store = openStore(`sqlite:${join(mkdtempSync(join(tmpdir(), 'mg-loads-')), 'gateway.sqlite')}`);
    try {
      await migrateToLatest(store);
      const now = new Date('2026-11-21T12:00:00Z');
      const secret = 'sk-mg-v1-reservation-loads-test-key-0000000000000000000';
      await bootstrap(store.db, () => now, secret);
      const hash = hashApiKey(secret);
      await store.db.updateTable('api_keys').set({ limit_usd: 10 }).where('hash', '=', hash).execute();
      await recordGeneration(
        store.db,
        {
          id: 'gen-1',
          organization_id: 'o',
          workspace_id: 'w',
          api_key_hash: hash,
          model: 'm',
          api_type: 'completions',
          status: 'success',
          streamed: 0,
          cancelled: 0,
          total_cost: 2,
          created_at: now.toISOString(),
        },
        now,
      );
      const [limit] = spendLimits((await findApiKeyByHash(store.db, hash))!, [], now);

      expect((await databaseAccounts(store.db)(limit!.account, now)).committed).toBe(2);
      const unwritten = new Map([
        [hash, 3],
        ['another key', 100],
      ]);
      expect((await databaseAccounts(store.db, () => unwritten)(limit!.account, now)).committed).toBe(5);
    } finally {
      await store.close();
    }
  });

  it("reads an organization's credits account as all its keys spent, deleted ones included, and its running video jobs' holds", async () => {
    const store = openStore(`sqlite:${join(mkdtempSync(join(tmpdir(), 'mg-loads-')), 'gateway.sqlite')}`);
    try {
      await migrateToLatest(store);
      const now = new Date('2026-11-21T12:00:00Z');
      const secret = 'sk-mg-v1-reservation-loads-test-key-0000000000000000001';
      const { organizationId } = await bootstrap(store.db, () => now, secret);
      const hash = hashApiKey(secret);
      const row = (id: string, api_key_hash: string, total_cost: number) => ({
        id,
        organization_id: organizationId,
        workspace_id: 'w',
        api_key_hash,
        model: 'm',
        api_type: 'completions',
        status: 'success' as const,
        streamed: 0,
        cancelled: 0,
        total_cost,
        created_at: now.toISOString(),
      });
      await recordGeneration(store.db, row('gen-1', hash, 2), now);
      await recordGeneration(store.db, row('gen-2', 'a deleted key', 1.5), now);
      await recordGeneration(store.db, { ...row('gen-3', 'another organization', 100), organization_id: 'other' }, now);
      const [limit] = spendLimits((await findApiKeyByHash(store.db, hash))!, [], now, 10);

      expect(await databaseAccounts(store.db)(limit!.account, now)).toEqual({ committed: 3.5, holds: [] });
      const unwritten = new Map([
        [hash, 3],
        ['a key of another organization', 100],
      ]);
      expect((await databaseAccounts(store.db, () => unwritten)(limit!.account, now)).committed).toBe(6.5);
    } finally {
      await store.close();
    }
  });
});
