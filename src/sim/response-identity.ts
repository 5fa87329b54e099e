import { randomUUID } from 'node:crypto';

/** What every response and chunk of one simulated completion shares. */
export interface ResponseIdentity {
  id: string;
  created: number;
  model: string;
  toolCallId: string;
}

/** OpenAI's fingerprint field names the backend configuration; the simulator has one. */
export const SYSTEM_FINGERPRINT = 'fp_sim';

const randomSuffix = (length: number) => randomUUID().replaceAll('-', '').slice(0, length);

export const newResponseIdentity = (model: string): ResponseIdentity => ({
  id: `chatcmpl-sim${randomSuffix(26)}`,
  created: Math.floor(Date.now() / 1000),
  model,
  toolCallId: `call_${randomSuffix(24)}`,
});

/** OpenAI's `x-request-id` response header. */
export const newRequestId = () => `req_${randomSuffix(32)}`;
