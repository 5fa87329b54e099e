import { SettingsError } from '../config/settings-error.js';
import { type MasterKeys, readMasterKeys } from './envelope.js';

/**
 * What the environment says of BYOK: the master keys (BYOK_MASTER_KEY,
 * BYOK_MASTER_KEYS_PREVIOUS) and BYOK_FEE_RATE, the share of a BYOK
 * generation's endpoint price the gateway charges (0 to 1; 0 when unset).
 */
export function byokSettings(env: NodeJS.ProcessEnv): { masterKeys?: MasterKeys; feeRate: number } {
  const masterKeys = readMasterKeys(env);
  const text = env.BYOK_FEE_RATE?.trim();
  const feeRate = text ? Number(text) : 0;
  if (!Number.isFinite(feeRate) || feeRate < 0 || feeRate > 1)
    throw new SettingsError(`BYOK_FEE_RATE must be a number from 0 to 1 (got "${text}")`);
  return { ...(masterKeys ? { masterKeys } : {}), feeRate };
}
