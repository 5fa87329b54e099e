import { describe, expect, it } from 'vitest';
import { GuardrailCache } from '../guardrails/guardrail-cache.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { ReservationBook } from './reservation-book.js';
import type { HoldStore, StoredAccount } from './reservation-store.js';
import { NO_RESERVATION, SpendReservations } from './reservations.js';

const now = new Date('2026-11-21T12:00:00.000Z');
const key = {
  hash: 'k1',
  organization_id: 'o1',
  workspace_id: 'w1',
  creator_user_id: null,
  limit_usd: 1,
  limit_reset: null,
  include_byok_in_limit: 0,
} as ApiKeyRow;
const noGuardrails = new GuardrailCache(async () => ({ guardrails: [], assignments: [] }));
const chatCeiling = (usd: number) => () => ({ usd, tokens: { requested: 100, affordable: (left: number) => Math.floor(left * 100) } });

function service(stored: StoredAccount = { committed: 0, holds: [] }, store?: HoldStore) {
  const book = new ReservationBook(async () => stored, { refreshMs: 60_000 });
  const errors: unknown[] = [];
  const spend = new SpendReservations({
    guardrails: noGuardrails,
    store: store ?? book,
    ...(store ? { fallback: book } : {}),
    clock: () => now,
    holdMs: 60_000,
    onStoreError: (error) => errors.push(error),
  });
  return { spend, errors };
}

describe('SpendReservations', () => {
  it('holds nothing, and computes no ceiling, for a key without a limit or a budget', async () => {
    const { spend } = service();
    const reservation = await spend.reserve({ ...key, limit_usd: null }, () => expect.unreachable('no ceiling'), { id: 'a' });
    expect(reservation).toBe(NO_RESERVATION);
  });

  it('refuses what does not fit with 402 saying what would: tokens for a chat, dollars otherwise; a spent limit as before', async () => {
    const { spend } = service({ committed: 0.75, holds: [] });
    await expect(spend.reserve(key, chatCeiling(0.5), { id: 'a' })).rejects.toMatchObject({
      statusCode: 402,
      message: 'This request requires more credits, or fewer max_tokens. You requested up to 100 tokens, but can only afford 25.',
      metadata: { limit: 'api_key', required_usd: 0.5, available_usd: 0.25 },
    });
    await expect(spend.reserve(key, () => ({ usd: 0.5 }), { id: 'b' })).rejects.toMatchObject({
      statusCode: 402,
      message:
        "This request can cost up to $0.5, more than the $0.25 left of the API key's spending limit once the requests in flight are counted",
    });
    await expect(service({ committed: 1, holds: [] }).spend.reserve(key, chatCeiling(0), { id: 'c' })).rejects.toMatchObject({
      statusCode: 402,
      message: 'API key spending limit of $1 in total is reached',
    });
  });

  it('settles or releases a reservation once, and resizes it only when the new ceiling fits', async () => {
    const { spend } = service();
    const first = await spend.reserve(key, chatCeiling(0.5), { id: 'a' });
    await expect(first.resize(chatCeiling(1.5))).rejects.toMatchObject({ statusCode: 402 });
    expect(first.amount).toBe(0.5);
    await first.resize(chatCeiling(0.9));
    await first.settle(0.25);
    await first.release();
    // 0.25 charged, nothing held.
    expect((await spend.reserve(key, chatCeiling(0.75), { id: 'b' })).amount).toBe(0.75);
  });

  it('holds in the fallback while the store fails, and tells the failure once, not per request', async () => {
    const failing: HoldStore = {
      hold: () => Promise.reject(new Error('redis away')),
      settle: () => Promise.reject(new Error('redis away')),
      release: () => Promise.reject(new Error('redis away')),
      settleById: () => Promise.reject(new Error('redis away')),
    };
    const { spend, errors } = service(undefined, failing);
    await spend.reserve(key, chatCeiling(0.5), { id: 'a' });
    await spend.reserve(key, chatCeiling(0.25), { id: 'b' });
    await expect(spend.reserve(key, chatCeiling(0.5), { id: 'c' })).rejects.toMatchObject({ statusCode: 402 });
    await spend.settleById('job-1', 0);
    expect(errors).toHaveLength(1);
  });

  it("holds against the organization's credits once it was granted any, and refuses what they cannot cover with 402", async () => {
    const accounts: Record<string, StoredAccount> = {
      'key:k1|total:all|paid': { committed: 0, holds: [] },
      'organization:o1|total:all|paid': { committed: 9.5, holds: [] },
    };
    const book = new ReservationBook(async (account) => accounts[account.id]!, { refreshMs: 60_000 });
    let granted: number | null = null;
    const spend = new SpendReservations({
      guardrails: noGuardrails,
      credits: async () => granted,
      store: book,
      clock: () => now,
      holdMs: 60_000,
    });
    const unlimited = { ...key, limit_usd: null };
    expect(await spend.reserve(unlimited, () => expect.unreachable('no ceiling'), { id: 'a' })).toBe(NO_RESERVATION);
    granted = 10;
    const held = await spend.reserve(unlimited, chatCeiling(0.25), { id: 'b' });
    expect(held.amount).toBe(0.25);
    await expect(spend.reserve(unlimited, chatCeiling(0.5), { id: 'c' })).rejects.toMatchObject({
      statusCode: 402,
      message: 'This request requires more credits, or fewer max_tokens. You requested up to 100 tokens, but can only afford 25.',
      metadata: { limit: 'credits', required_usd: 0.5, available_usd: 0.25 },
    });
    await expect(spend.reserve(unlimited, () => ({ usd: 0.5 }), { id: 'd' })).rejects.toMatchObject({
      message:
        "This request can cost up to $0.5, more than the $0.25 left of the organization's credits once the requests in flight are counted",
    });
    await held.settle(0.5);
    await expect(spend.reserve(unlimited, chatCeiling(0), { id: 'e' })).rejects.toMatchObject({
      statusCode: 402,
      message:
        'Insufficient credits: the organization has used $10 of the $10 granted to it; an operator grants more (model-gateway credits grant)',
      metadata: { limit: 'credits', total_credits: 10, total_usage: 10 },
    });
  });
});
