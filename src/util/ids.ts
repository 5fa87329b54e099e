import { randomBytes, randomUUID } from 'node:crypto';

// Random bytes drawn from a pool refilled 4 KiB at a time: one call into the CSPRNG per few hundred
// ids instead of one per id (as randomUUID caches its entropy).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** `bytes` fresh random bytes, never handed out twice. */
export function randomSlice(bytes: number): Buffer {
  if (bytes > POOL_BYTES) return randomBytes(bytes);
  if (offset + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  offset += bytes;
  return pool.subarray(offset - bytes, offset);
}

const token = (bytes: number) => randomSlice(bytes).toString('base64url');

export const newUuid = (): string => randomUUID();
export const newOrganizationId = (): string => `org_${token(16)}`;
export const newUserId = (): string => `user_${token(16)}`;
export const newAuthorizationCodeId = (): string => `auth_code_${token(24)}`;
export const newRequestId = (): string => `req_${token(12)}`;
export const newInternId = (): string => `intern_${token(16)}`;
/** A file of the files API: the reference's `or_file_` prefix, which tells it apart from a provider's own file ids. */
export const newFileId = (): string => `${FILE_ID_PREFIX}${token(18)}`;
export const FILE_ID_PREFIX = 'or_file_';
/** A container: OpenAI's `cntr_` prefix, 20 characters in all (the reference's longest container_id). */
export const newContainerId = (): string => `cntr_${token(11)}`;
export const newContainerFileId = (): string => `cfile_${token(16)}`;
export const newInternSessionId = (): string => `isess_${token(16)}`;
/** A generation id: `gen-<unix seconds>-<random>`, the same in the response and the ledger. */
export const newGenerationId = (now: Date): string => `gen-${Math.floor(now.getTime() / 1000)}-${randomSlice(10).toString('hex')}`;
