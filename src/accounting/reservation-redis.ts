import type { Redis } from 'ioredis';
import { accountsOf, countsByok, type SpendLimit } from './reservation-limits.js';
import { firstShortfall, type Hold, type HoldStore, type LoadAccount, type Shortfall } from './reservation-store.js';

/**
 * An account is a hash: `c` what was charged in its window, `h:<id>` each
 * hold as "amount:expiresAt". The hold's id names a set of the accounts it is
 * on, for settleById. The check and the hold are one script: atomic across
 * every instance. Times are the gateway's clock (epoch ms), passed in.
 */
const HOLD = `
local n = #KEYS - 1
local now, field, amount = tonumber(ARGV[1]), 'h:' .. ARGV[2], tonumber(ARGV[3])
local missing = {}
for i = 1, n do if redis.call('EXISTS', KEYS[i]) == 0 then missing[#missing + 1] = i end end
if #missing > 0 then return {'load', unpack(missing)} end
local standing, fits = {'short'}, true
for i = 1, n do
  local committed, held = 0, 0
  local fields = redis.call('HGETALL', KEYS[i])
  for j = 1, #fields, 2 do
    local name, value = fields[j], fields[j + 1]
    if name == 'c' then committed = tonumber(value)
    elseif name ~= field then
      local colon = string.find(value, ':', 1, true)
      if tonumber(string.sub(value, colon + 1)) <= now then redis.call('HDEL', KEYS[i], name)
      else held = held + tonumber(string.sub(value, 1, colon - 1)) end
    end
  end
  local limit = tonumber(ARGV[5 + i])
  if committed >= limit or limit - committed - held < amount - 1e-12 then fits = false end
  standing[#standing + 1] = tostring(committed)
  standing[#standing + 1] = tostring(held)
end
if not fits then return standing end
local ttl = tonumber(ARGV[5])
for i = 1, n do
  redis.call('HSET', KEYS[i], field, ARGV[3] .. ':' .. ARGV[4])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
  redis.call('SADD', KEYS[n + 1], KEYS[i])
end
redis.call('PEXPIRE', KEYS[n + 1], ttl)
return {'ok'}
`;

/** Creates an account read from the database unless another instance did meanwhile. KEYS: the account, then each hold's index. */
const INIT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'c', ARGV[1])
for i = 2, #KEYS do
  redis.call('HSET', KEYS[1], 'h:' .. ARGV[i * 2 - 1], ARGV[i * 2])
  redis.call('SADD', KEYS[i], KEYS[1])
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** Ends a hold on the accounts that still exist, charging `cost` (0: a release). KEYS: the accounts, then the hold's index. */
const SETTLE = `
local n = #KEYS - 1
for i = 1, n do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('HDEL', KEYS[i], 'h:' .. ARGV[1])
    if tonumber(ARGV[2]) ~= 0 then redis.call('HINCRBYFLOAT', KEYS[i], 'c', ARGV[2]) end
  end
end
redis.call('DEL', KEYS[n + 1])
return 1
`;

type Script = (numberOfKeys: number, ...args: (string | number)[]) => Promise<unknown>;

export interface RedisHoldOptions {
  /** Key prefix of the accounts and hold indexes. */
  prefix?: string;
  /** An account nobody holds on for this long is dropped from Redis and read from the database at its next use. */
  idleMs: number;
}

/**
 * Holds kept in Redis, shared by every instance: an account is read from the
 * database by the first instance that needs it and kept in Redis while it is
 * used (and at least until its last hold expires); each settlement adds its
 * charge there after the ledger row commits. One round trip per hold and per
 * settlement, no database read.
 */
export class RedisHolds implements HoldStore {
  private readonly prefix: string;
  private readonly scripts: { hold: Script; init: Script; settle: Script };
  private readonly loading = new Map<string, Promise<void>>();

  constructor(
    private readonly redis: Redis,
    private readonly load: LoadAccount,
    private readonly options: RedisHoldOptions,
  ) {
    this.prefix = options.prefix ?? 'mg:spend:';
    const define = (name: string, lua: string): Script => {
      const command = `mgSpend${name}`;
      if (!(command in redis)) redis.defineCommand(command, { lua });
      const script = (redis as unknown as Record<string, Script>)[command]!;
      return script.bind(redis);
    };
    this.scripts = { hold: define('Hold', HOLD), init: define('Init', INIT), settle: define('Settle', SETTLE) };
  }

  async hold(limits: readonly SpendLimit[], hold: Hold, now: Date): Promise<Shortfall | undefined> {
    const accounts = accountsOf(limits);
    const keys = accounts.map((account) => this.accountKey(account.id));
    const floors = accounts.map((account) => Math.min(...limits.filter((l) => l.account.id === account.id).map((l) => l.limitUsd)));
    const ttl = this.options.idleMs + Math.max(0, hold.expiresAt - now.getTime());
    for (let tries = 0; ; tries++) {
      const answer = (await this.scripts.hold(
        keys.length + 1,
        ...keys,
        this.indexKey(hold.id),
        now.getTime(),
        hold.id,
        hold.amount,
        hold.expiresAt,
        ttl,
        ...floors,
      )) as (string | number)[];
      if (answer[0] === 'ok') return undefined;
      if (answer[0] === 'load' && tries < 3) {
        await Promise.all(answer.slice(1).map((i) => this.initOnce(accounts[Number(i) - 1]!, keys[Number(i) - 1]!, now)));
        continue;
      }
      if (answer[0] !== 'short') throw new Error('spend accounts could not be read into Redis');
      const standing = new Map(
        accounts.map((account, i) => [account.id, { committed: Number(answer[1 + 2 * i]), held: Number(answer[2 + 2 * i]) }]),
      );
      const shortfall = firstShortfall(limits, hold.amount, (account) => standing.get(account.id)!);
      // The script and the check here round alike; should they ever part, the first limit speaks for the refusal.
      return shortfall ?? { limit: limits[0]!, committed: standing.get(limits[0]!.account.id)!.committed, available: 0 };
    }
  }

  async settle(accounts: readonly string[], id: string, cost: number): Promise<void> {
    await this.scripts.settle(accounts.length + 1, ...accounts.map((account) => this.accountKey(account)), this.indexKey(id), id, cost);
  }

  release(accounts: readonly string[], id: string): Promise<void> {
    return this.settle(accounts, id, 0);
  }

  async settleById(id: string, cost: number, byokCost = 0): Promise<void> {
    const keys = await this.redis.smembers(this.indexKey(id));
    const settle = (accounts: string[], charge: number) =>
      this.scripts.settle(accounts.length + 1, ...accounts, this.indexKey(id), id, charge);
    if (byokCost === 0) return void (await settle(keys, cost));
    await Promise.all([
      settle(keys.filter(countsByok), cost + byokCost),
      settle(
        keys.filter((key) => !countsByok(key)),
        cost,
      ),
    ]);
  }

  /** init(), shared by this instance's concurrent first uses of an account. */
  private initOnce(account: Parameters<LoadAccount>[0], key: string, now: Date): Promise<void> {
    let loading = this.loading.get(key);
    if (!loading) {
      loading = this.init(account, key, now).finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    return loading;
  }

  private async init(account: Parameters<LoadAccount>[0], key: string, now: Date): Promise<void> {
    const stored = await this.load(account, now);
    const ttl = this.options.idleMs + Math.max(0, ...stored.holds.map((hold) => hold.expiresAt - now.getTime()));
    const holds = stored.holds.filter((hold) => hold.expiresAt > now.getTime());
    await this.scripts.init(
      1 + holds.length,
      key,
      ...holds.map((hold) => this.indexKey(hold.id)),
      stored.committed,
      ttl,
      ...holds.flatMap((hold) => [hold.id, `${hold.amount}:${hold.expiresAt}`]),
    );
  }

  private accountKey(account: string): string {
    return `${this.prefix}a:${account}`;
  }

  private indexKey(id: string): string {
    return `${this.prefix}h:${id}`;
  }
}
