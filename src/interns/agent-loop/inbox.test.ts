import { describe, expect, it } from 'vitest';
import { Inbox } from './inbox.js';

describe('Inbox', () => {
  it('hands steering inputs out once, in order', () => {
    const inbox = new Inbox();
    inbox.steer('a');
    inbox.steer('b');
    expect(inbox.drainSteers()).toEqual(['a', 'b']);
    expect(inbox.drainSteers()).toEqual([]);
  });

  it('waits for an answer given later', async () => {
    const inbox = new Inbox();
    const answer = inbox.nextAnswer(new AbortController().signal);
    setTimeout(() => inbox.answerWith('yes'), 5);
    await expect(answer).resolves.toBe('yes');
  });

  it('returns an answer given before it was asked for', async () => {
    const inbox = new Inbox();
    inbox.answerWith('early');
    await expect(inbox.nextAnswer(new AbortController().signal)).resolves.toBe('early');
  });

  it('gives up when the signal aborts', async () => {
    const inbox = new Inbox();
    const stop = new AbortController();
    const answer = inbox.nextAnswer(stop.signal);
    stop.abort();
    await expect(answer).resolves.toBeUndefined();
  });
});
