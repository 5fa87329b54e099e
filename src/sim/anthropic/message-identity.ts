import { randomBytes, randomUUID } from 'node:crypto';

/** What the Message, its tool call and its thinking signature are named, for one simulated answer. */
export interface MessageIdentity {
  id: string;
  toolUseId: string;
  /** Stands in for the encrypted signature Anthropic puts on thinking blocks. */
  signature: string;
}

const randomSuffix = (length: number) => randomUUID().replaceAll('-', '').slice(0, length);

export const newMessageIdentity = (): MessageIdentity => ({
  id: `msg_sim${randomSuffix(21)}`,
  toolUseId: `toolu_sim${randomSuffix(21)}`,
  signature: randomBytes(48).toString('base64'),
});
