import { createHash } from 'node:crypto';
import { fixedWindow } from '../../store/fixed-window.js';
import type { SharedRedis } from '../../store/shared-redis.js';

/** How many failed console sign-ins a client address, and a key prefix, may make per window. */
export const SIGN_IN_LIMITS = { perAddress: 20, perKeyPrefix: 10, windowSeconds: 300 } as const;

/** As much of a presented key as names its prefix: `sk-mg-v1-` and three more, the start its label shows. */
const KEY_PREFIX_LENGTH = 12;

export type SignInAttempt =
  | { allowed: true /** The sign-in succeeded: it does not count against either limit. */; succeeded(): Promise<void> }
  | { allowed: false; retryAfterSeconds: number; by: string; attempts: number };

/**
 * Counts console sign-ins per client address and per key prefix, before the key is looked at, so that
 * concurrent guesses are counted too; a sign-in that succeeds is given back, so only failures count.
 * The prefix limit holds against guesses spread over many addresses at a key whose label is known.
 */
export function signInLimiter(redis?: SharedRedis) {
  const window = (points: number, name: string) =>
    fixedWindow({ points, duration: SIGN_IN_LIMITS.windowSeconds, keyPrefix: `mg:console-sign-in:${name}` }, redis);
  const byAddress = window(SIGN_IN_LIMITS.perAddress, 'address');
  const byPrefix = window(SIGN_IN_LIMITS.perKeyPrefix, 'prefix');
  return async (address: string, key: string): Promise<SignInAttempt> => {
    // Counters are named by a hash: no part of a key is kept in Redis.
    const prefix = createHash('sha256').update(key.slice(0, KEY_PREFIX_LENGTH)).digest('hex');
    const [fromAddress, withPrefix] = await Promise.all([byAddress(address), byPrefix(prefix)]);
    const refused = !fromAddress.allowed
      ? { decision: fromAddress, by: 'from this client address', attempts: SIGN_IN_LIMITS.perAddress }
      : !withPrefix.allowed
        ? { decision: withPrefix, by: "with this key's prefix", attempts: SIGN_IN_LIMITS.perKeyPrefix }
        : undefined;
    if (refused) {
      const retryAfterSeconds = Math.max(1, Math.ceil(refused.decision.msBeforeNext / 1000));
      return { allowed: false, retryAfterSeconds, by: refused.by, attempts: refused.attempts };
    }
    return {
      allowed: true,
      succeeded: async () => {
        await Promise.all([byAddress.giveBack(address), byPrefix.giveBack(prefix)]);
      },
    };
  };
}

export type SignInLimiter = ReturnType<typeof signInLimiter>;
