import type { HttpTarget } from './load-types.js';
import { chatTarget, type Route, streamTarget } from './routes.js';

async function checkOne(target: HttpTarget, expect: string): Promise<void> {
  const response = await fetch(`${target.origin}${target.path}`, {
    method: 'POST',
    headers: { authorization: target.authorization, 'content-type': 'application/json' },
    body: target.body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes(expect)) {
    throw new Error(`POST ${target.origin}${target.path} answered ${response.status}: ${text.slice(0, 500)}`);
  }
}

/** One chat request before any load: a misconfigured route fails here, with its answer, not as a phase full of errors. */
export const checkChat = (route: Route): Promise<void> => checkOne(chatTarget(route), '"choices"');

/** checkChat, and one stream. */
export async function checkRoute(route: Route): Promise<void> {
  await checkChat(route);
  await checkOne(streamTarget(route), '[DONE]');
}
