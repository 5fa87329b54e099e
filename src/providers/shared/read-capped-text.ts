import type { Dispatcher } from 'undici';
import { readCapped } from '../../net/read-capped.js';

/** A body read as far as a limit: its text (at most maxBytes of it) and whether there was more. */
export interface CappedText {
  text: string;
  cut: boolean;
}

/**
 * Reads an upstream's body up to maxBytes (net/read-capped.ts): the rest is
 * never held in memory. A body whose Content-Length fits is read whole by
 * undici, the cheaper way.
 */
export async function readCappedText(
  body: Dispatcher.ResponseData['body'],
  headers: Dispatcher.ResponseData['headers'],
  maxBytes: number,
): Promise<CappedText> {
  const declared = headers['content-length'] === undefined ? NaN : Number(headers['content-length']);
  if (Number.isInteger(declared) && declared <= maxBytes) return { text: await body.text(), cut: false };
  const read = await readCapped(body, maxBytes);
  return { text: read.body.toString('utf8'), cut: read.truncated };
}
