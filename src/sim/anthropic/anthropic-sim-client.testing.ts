import { EventSourceParserStream } from 'eventsource-parser/stream';

/** Helpers for tests that talk to the simulator's Messages API. */

export const ANTHROPIC_HEADERS = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };

export const postMessages = (url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { ...ANTHROPIC_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });

export interface NamedEvent {
  event: string | undefined;
  data: string;
}

/** Every SSE event that arrived (name and data, parsed by a real SSE parser), and why the stream broke if it did. */
export async function readNamedEvents(response: Response): Promise<{ events: NamedEvent[]; failure?: unknown }> {
  const events: NamedEvent[] = [];
  try {
    if (!response.body) throw new Error('response has no body');
    const parsed = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
    for await (const { event, data } of parsed) events.push({ event, data });
    return { events };
  } catch (failure) {
    return { events, failure };
  }
}

/** The events of a stream that must complete, with their data parsed. */
export async function readEvents(response: Response): Promise<{ event: string | undefined; data: any }[]> {
  const { events, failure } = await readNamedEvents(response);
  if (failure) throw failure;
  return events.map(({ event, data }) => ({ event, data: JSON.parse(data) }));
}
