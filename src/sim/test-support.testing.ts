import { EventSourceParserStream } from 'eventsource-parser/stream';

/** Helpers for tests that talk to a running simulator. */

export const postChat = (url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-key', 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });

/** The `data` of every SSE event that arrived, parsed by a real SSE parser, and why the stream broke if it did. */
export async function readSseUntilFailure(response: Response): Promise<{ data: string[]; failure?: unknown }> {
  const data: string[] = [];
  try {
    if (!response.body) throw new Error('response has no body');
    const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
    for await (const event of events) data.push(event.data);
    return { data };
  } catch (failure) {
    return { data, failure };
  }
}

/** The `data` of every SSE event of a stream that must complete. */
export async function readSseData(response: Response): Promise<string[]> {
  const { data, failure } = await readSseUntilFailure(response);
  if (failure) throw failure;
  return data;
}

/** A JSON body, loosely typed: the tests check its shape with expect(). */
export const readJson = (response: Response): Promise<any> => response.json();

/** What the simulator has received so far (`GET /__sim/stats`). */
export const readSimStats = async (url: string) => readJson(await fetch(`${url}/__sim/stats`));
