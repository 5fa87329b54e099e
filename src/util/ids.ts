import { randomBytes, randomUUID } from 'node:crypto';

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

export const newUuid = (): string => randomUUID();
export const newOrganizationId = (): string => `org_${token(16)}`;
export const newUserId = (): string => `user_${token(16)}`;
export const newAuthorizationCodeId = (): string => `auth_code_${token(24)}`;
export const newRequestId = (): string => `req_${token(12)}`;
/** A generation id: `gen-<unix seconds>-<random>`, the same in the response and the ledger. */
export const newGenerationId = (now: Date): string => `gen-${Math.floor(now.getTime() / 1000)}-${randomBytes(10).toString('hex')}`;
