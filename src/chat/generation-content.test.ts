import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk, ChatMessage } from '../protocol/chat.js';
import { boundedMessages, CONTENT_LIMITS, generationContent, StreamedText } from './generation-content.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const run = { id: 'gen-1', key: { organization_id: 'org' }, startedAt: Date.parse('2026-11-24T10:00:00.000Z') };

describe('generation content', () => {
  it('keeps messages that fit whole, and says nothing was cut', () => {
    const messages = [user('hello'), { role: 'assistant', content: 'hi' } as ChatMessage];
    expect(boundedMessages(messages)).toEqual({ json: JSON.stringify(messages), truncated: false });
  });

  it('cuts long strings first, then drops the oldest messages, always within the bound', () => {
    const long = 'x'.repeat(CONTENT_LIMITS.input);
    const cut = boundedMessages([user('short'), user(long)]);
    expect(cut.truncated).toBe(true);
    const kept = JSON.parse(cut.json) as { content: string }[];
    expect(kept[0]!.content).toBe('short');
    expect(kept[1]!.content).toHaveLength(CONTENT_LIMITS.string);
    expect(kept[1]!.content.endsWith('…')).toBe(true);

    const many = Array.from({ length: 40 }, (_, i) => user(`${i}`.padEnd(CONTENT_LIMITS.string, '.')));
    const newest = boundedMessages(many);
    expect(newest.json.length).toBeLessThanOrEqual(CONTENT_LIMITS.input);
    const left = JSON.parse(newest.json) as { content: string }[];
    expect(left.at(-1)!.content.startsWith('39')).toBe(true);
    expect(left.length).toBeLessThan(40);
  });

  it('reads each message a bounded number of times however many must go (linear, not once per message dropped)', () => {
    let reads = 0;
    const counted = (i: number): ChatMessage => ({
      role: 'user',
      get content() {
        reads++;
        return `${i}`.padEnd(400, '.');
      },
    });
    const many = Array.from({ length: 1_200 }, (_, i) => counted(i));
    const newest = boundedMessages(many);
    expect(newest.json.length).toBeLessThanOrEqual(CONTENT_LIMITS.input);
    expect(newest.json.length).toBeGreaterThan(CONTENT_LIMITS.input - 100);
    expect((JSON.parse(newest.json) as { content: string }[]).at(-1)!.content.startsWith('1199')).toBe(true);
    expect(reads).toBeLessThanOrEqual(2 * many.length);
  });

  it('shortens the last message when it alone is too long, and keeps nothing when even that is', () => {
    const parts = Array.from({ length: 60 }, () => ({ type: 'text' as const, text: 'y'.repeat(CONTENT_LIMITS.string) }));
    const one = boundedMessages([{ role: 'user', content: parts }]);
    expect(one.truncated).toBe(true);
    expect(one.json.length).toBeLessThanOrEqual(CONTENT_LIMITS.input);
    expect((JSON.parse(one.json) as { content: unknown[] }[])[0]!.content).toHaveLength(60);
    const tiny = Array.from({ length: 30_000 }, () => ({ type: 'text' as const, text: 'z' }));
    expect(boundedMessages([{ role: 'user', content: tiny }])).toEqual({ json: '[]', truncated: true });
  });

  it('makes the row: messages, completion and reasoning within their bounds, and whether any was cut', () => {
    expect(generationContent(run, [user('hi')], { completion: 'hello', reasoning: null })).toEqual({
      generation_id: 'gen-1',
      organization_id: 'org',
      input: '[{"role":"user","content":"hi"}]',
      completion: 'hello',
      reasoning: null,
      truncated: 0,
      created_at: '2026-11-24T10:00:00.000Z',
    });
    const long = generationContent(run, [user('hi')], { completion: 'c'.repeat(CONTENT_LIMITS.text + 5), reasoning: 'r' });
    expect(long.completion).toHaveLength(CONTENT_LIMITS.text);
    expect(long.truncated).toBe(1);
    expect(generationContent(run, [user('hi')], undefined)).toMatchObject({ completion: null, reasoning: null, truncated: 0 });
  });

  it("collects a stream's first choice, content and reasoning apart, up to a bound", () => {
    const chunk = (index: number, delta: ChatCompletionChunk['choices'][number]['delta']) =>
      ({ choices: [{ index, delta, finish_reason: null }] }) as unknown as ChatCompletionChunk;
    const text = new StreamedText();
    expect(text.text()).toEqual({ completion: null, reasoning: null });
    for (const c of [
      chunk(0, { reasoning: 'think' }),
      chunk(0, { content: 'Hel' }),
      chunk(1, { content: 'other' }),
      chunk(0, { content: 'lo' }),
    ])
      text.see(c);
    expect(text.text()).toEqual({ completion: 'Hello', reasoning: 'think' });
    const bounded = new StreamedText();
    for (let i = 0; i < 3; i++) bounded.see(chunk(0, { content: 'a'.repeat(CONTENT_LIMITS.text / 2) }));
    expect(bounded.text().completion!.length).toBeGreaterThan(CONTENT_LIMITS.text);
    expect(generationContent(run, [], bounded.text()).truncated).toBe(1);
  });
});
