import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../protocol/upstream.js';
import { readOpenAISpeechEvents } from './read-openai-speech-events.js';

async function* sse(...data: string[]) {
  for (const d of data) yield { data: d, event: undefined, id: undefined };
}
const read = async (...data: string[]) => {
  const events = [];
  for await (const event of readOpenAISpeechEvents(sse(...data))) events.push(event);
  return events;
};
const delta = JSON.stringify({ type: 'speech.audio.delta', audio: 'AAAA' });
const done = JSON.stringify({ type: 'speech.audio.done', usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } });

describe('readOpenAISpeechEvents', () => {
  it('yields the deltas and the done event, and nothing after it', async () => {
    expect((await read(delta, done, delta, '[DONE]')).map((e) => e.type)).toEqual(['speech.audio.delta', 'speech.audio.done']);
  });

  it('rejects a stream cut before speech.audio.done as a connection failure', async () => {
    await expect(read(delta)).rejects.toMatchObject({ failure: 'connection' });
  });

  it("rejects an error event as the upstream's failure, and an event without a type as malformed", async () => {
    const failed = await read(delta, JSON.stringify({ error: { message: 'boom', type: 'server_error' } })).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(UpstreamError);
    await expect(read(JSON.stringify({ audio: 'AAAA' }))).rejects.toMatchObject({ failure: 'malformed' });
  });
});
