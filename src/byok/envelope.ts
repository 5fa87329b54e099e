import { createHash, randomBytes } from 'node:crypto';
import { SettingsError } from '../config/settings-error.js';
import { type SecretBox, secretBox } from '../util/secret-box.js';

/**
 * Envelope encryption of provider keys: each key is sealed under a data key of
 * its own (the vault's AES-256-GCM box, api/vault/secret-box.ts), and the data
 * key is sealed ("wrapped") under the master key. Rotating the master key
 * rewraps data keys only; the master keys that still open older rows stay
 * known until `byok rewrap` has moved every row to the current one.
 */
export interface Envelope {
  /** The id of the master key new rows are wrapped under. */
  readonly currentKeyId: string;
  seal(value: string): SealedValue;
  open(sealed: SealedValue): string;
  /** The same data key wrapped under the current master key. */
  rewrap(sealed: Pick<SealedValue, 'wrappedDataKey' | 'masterKeyId'>): Pick<SealedValue, 'wrappedDataKey' | 'masterKeyId'>;
}

export interface SealedValue {
  sealedKey: string;
  wrappedDataKey: string;
  masterKeyId: string;
}

/** The master keys, hex (64 digits each): the current one first, then older ones still needed to open rows not yet rewrapped. */
export type MasterKeys = readonly [string, ...string[]];

/** A master key's id: a short digest, so that a row names the key that wraps it without revealing it. */
export const masterKeyId = (hex: string): string => createHash('sha256').update(`byok-master:${hex}`).digest('hex').slice(0, 16);

export function envelope(masterKeys: MasterKeys): Envelope {
  const boxes = new Map<string, SecretBox>(masterKeys.map((hex) => [masterKeyId(hex), secretBox(hex)]));
  const currentKeyId = masterKeyId(masterKeys[0]);
  const current = boxes.get(currentKeyId)!;
  const master = (id: string): SecretBox => {
    const box = boxes.get(id);
    if (!box) throw new Error(`BYOK master key ${id} is not configured: add it to BYOK_MASTER_KEYS_PREVIOUS`);
    return box;
  };
  return {
    currentKeyId,
    seal(value) {
      const dataKey = randomBytes(32).toString('hex');
      return { sealedKey: secretBox(dataKey).seal(value), wrappedDataKey: current.seal(dataKey), masterKeyId: currentKeyId };
    },
    open(sealed) {
      const dataKey = master(sealed.masterKeyId).open(sealed.wrappedDataKey);
      return secretBox(dataKey).open(sealed.sealedKey);
    },
    rewrap(sealed) {
      if (sealed.masterKeyId === currentKeyId) return { wrappedDataKey: sealed.wrappedDataKey, masterKeyId: currentKeyId };
      return { wrappedDataKey: current.seal(master(sealed.masterKeyId).open(sealed.wrappedDataKey)), masterKeyId: currentKeyId };
    },
  };
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

/**
 * The master keys from the environment: BYOK_MASTER_KEY (the current one) and
 * BYOK_MASTER_KEYS_PREVIOUS (comma-separated, older ones); none when unset
 * (the gateway then uses its vault key, kept in the database).
 */
export function readMasterKeys(env: NodeJS.ProcessEnv): MasterKeys | undefined {
  const current = env.BYOK_MASTER_KEY?.trim();
  const previous = (env.BYOK_MASTER_KEYS_PREVIOUS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  if (!current) {
    if (previous.length > 0) throw new SettingsError('BYOK_MASTER_KEYS_PREVIOUS is set without BYOK_MASTER_KEY');
    return undefined;
  }
  for (const [name, key] of [['BYOK_MASTER_KEY', current], ...previous.map((k) => ['BYOK_MASTER_KEYS_PREVIOUS', k])] as const)
    if (!HEX_KEY.test(key)) throw new SettingsError(`${name} must be 64 hex digits (32 bytes)`);
  return [current, ...previous];
}

/** What `label` shows of a key: its first and last characters, never enough to use it. */
export function keyLabel(key: string): string {
  const head = key.length >= 12 ? 3 : 1;
  const tail = key.length >= 12 ? 4 : 1;
  return `${key.slice(0, head)}...${key.slice(-tail)}`;
}
